//! Helpers shared by the tests: compile two versions, check, and confirm
//! counterexamples with the real decoder.

#![allow(dead_code, unreachable_pub)]

use bijoubuf_breaking::counterexample::{Counterexample, counterexample};
use bijoubuf_breaking::{Category, Finding, Old, check};
use bijoubuf_reflect::DescriptorPool;
use bijoubuf_schema::{Schema, compile_sources};

/// Two versions of a schema and the checker's findings.
pub struct Case {
    /// The old version.
    pub old: Schema,
    /// The new version.
    pub new: Schema,
    /// What the checker says.
    pub findings: Vec<Finding>,
}

/// `t.proto` with `text`, compiled.
pub fn compile(text: &str) -> Schema {
    match compile_sources(&[("t.proto", text)]) {
        Ok(c) => c.schema,
        Err(e) => panic!("test schema does not compile: {e}\n{text}"),
    }
}

/// Compile both versions and compare them.
pub fn case(old: &str, new: &str) -> Case {
    let old = compile(old);
    let new = compile(new);
    let findings = check(Old::Schema(&old), &new).expect("schemas compare");
    Case { old, new, findings }
}

impl Case {
    /// (rule id, category) of the findings in `cat`, sorted.
    pub fn ids(&self, cat: Category) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self
            .findings
            .iter()
            .filter(|f| f.category == cat)
            .map(|f| f.rule_id())
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// The counterexample of every canonical and forward finding; panics on a finding
    /// the decoder does not confirm.
    pub fn confirmed(&self) -> Vec<(String, Counterexample)> {
        let old = DescriptorPool::new(&self.old);
        let new = DescriptorPool::new(&self.new);
        self.findings
            .iter()
            .filter(|f| matches!(f.category, Category::Canonical | Category::Forward))
            .map(|f| match counterexample(f, &old, &new) {
                Some(c) => (format!("{}/{}", f.category, f.rule_id()), c),
                None => panic!("checker bug: no counterexample confirms {}", f.to_line()),
            })
            .collect()
    }
}
