//! RULES.md is the rule table the crate docs show; it must equal `RULES`.

#[test]
fn rules_md_is_the_rule_table() {
    let file = include_str!("../RULES.md");
    let table = bijoubuf_breaking::rule_table_markdown();
    if std::env::var_os("BIJOUBUF_BLESS").is_some() {
        std::fs::write(concat!(env!("CARGO_MANIFEST_DIR"), "/RULES.md"), &table)
            .expect("write RULES.md");
        return;
    }
    assert_eq!(
        file, table,
        "RULES.md differs from RULES (rerun with BIJOUBUF_BLESS=1)"
    );
}
