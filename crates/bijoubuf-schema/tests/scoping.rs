//! Package scoping in name lookup: a package counts only when the file itself or a file
//! it imports (directly, or through `import public`) declares it, as protoc does.

use bijoubuf_schema::{Compiler, FieldType, compile_sources};

const A: &str = r#"syntax = "proto3";
package envoy.extensions.config;
message X {}
"#;

const CORE2: &str = r#"syntax = "proto3";
package envoy.config.core.v3;
import "a.proto";
message DataSource { envoy.extensions.config.X x = 1; }
"#;

fn user(package: &str, import: &str) -> String {
    format!(
        "syntax = \"proto3\";\npackage {package};\nimport \"{import}\";\n\
         message M {{ config.core.v3.DataSource d = 1; }}\n"
    )
}

fn field_type(c: &bijoubuf_schema::Compiled, message: &str) -> FieldType {
    c.schema.message(message).expect("compiled").fields[0]
        .ty
        .clone()
}

#[test]
fn a_package_reached_only_through_an_indirect_import_is_not_in_scope() {
    let compiled = Compiler::new()
        .source("a.proto", A)
        .source("core2.proto", CORE2)
        .source("b2.proto", user("envoy.extensions.tls.v3", "core2.proto"))
        .compile(&["b2.proto"])
        .unwrap_or_else(|e| panic!("refused: {:?}", e.errors()));
    assert_eq!(
        field_type(&compiled, "envoy.extensions.tls.v3.M"),
        FieldType::Message("envoy.config.core.v3.DataSource".into())
    );
}

#[test]
fn a_package_of_a_direct_or_public_import_is_in_scope() {
    // Imported directly, `config` is envoy.extensions.config, which has no core.v3.
    let direct = Compiler::new()
        .source("a.proto", A)
        .source("core2.proto", CORE2)
        .source(
            "b3.proto",
            "syntax = \"proto3\";\npackage envoy.extensions.tls.v3;\nimport \"core2.proto\";\n\
             import \"a.proto\";\nmessage M { config.core.v3.DataSource d = 1; X x = 2; }\n",
        )
        .compile(&["b3.proto"]);
    let err = direct.expect_err("config resolves to envoy.extensions.config");
    assert!(
        err.errors()
            .iter()
            .any(|d| d.code() == "unresolved-type" && d.message().contains("config.core.v3")),
        "{:?}",
        err.errors()
    );
    // Re-exported with `import public`, the same holds.
    let public = Compiler::new()
        .source("a.proto", A)
        .source("core2.proto", CORE2)
        .source(
            "pub.proto",
            "syntax = \"proto3\";\npackage other;\nimport public \"a.proto\";\n",
        )
        .source(
            "b4.proto",
            "syntax = \"proto3\";\npackage envoy.extensions.tls.v3;\nimport \"core2.proto\";\n\
             import \"pub.proto\";\nmessage M { config.core.v3.DataSource d = 1; }\n",
        )
        .compile(&["b4.proto"]);
    assert!(
        public.is_err(),
        "a public import brings its package into scope"
    );
}

/// Hundreds of files compiled in one call, every one of which resolves its names only
/// through the packages it imports, while an indirect import declares a closer package.
#[test]
fn a_generated_tree_compiles_in_one_call() {
    let mut c = Compiler::new();
    c.source("a.proto", A).source("core2.proto", CORE2);
    let mut names = vec!["a.proto".to_string(), "core2.proto".to_string()];
    for i in 0..300 {
        let name = format!("tls{i}/b.proto");
        // Every other file goes through an intermediate file, one import further away.
        let import = if i % 2 == 0 {
            "core2.proto".to_string()
        } else {
            let mid = format!("mid{i}.proto");
            c.source(
                mid.clone(),
                format!(
                    "syntax = \"proto3\";\npackage envoy.extensions.mid{i};\nimport public \"core2.proto\";\n"
                ),
            );
            names.push(mid.clone());
            mid
        };
        c.source(
            name.clone(),
            user(&format!("envoy.extensions.tls{i}.v3"), &import),
        );
        names.push(name);
    }
    let compiled = c
        .compile(&names)
        .unwrap_or_else(|e| panic!("refused: {:?}", &e.errors()[..e.errors().len().min(3)]));
    for i in 0..300 {
        assert_eq!(
            field_type(&compiled, &format!("envoy.extensions.tls{i}.v3.M")),
            FieldType::Message("envoy.config.core.v3.DataSource".into())
        );
    }
}

#[test]
fn missing_import_advice_names_only_a_file_that_defines_the_name() {
    // Issue 23, item 6: with google/type/postal_address.proto missing, the package
    // `google` (declared by descriptor.proto, loaded for another file) was offered as
    // where google.type.PostalAddress "seems to be defined".
    let other = "syntax = \"proto3\";\npackage other;\nimport \"google/protobuf/descriptor.proto\";\nmessage O {}\n";
    let user = "syntax = \"proto3\";\npackage shop;\nimport \"google/type/postal_address.proto\";\nmessage A { google.type.PostalAddress addr = 1; }\n";
    let err = compile_sources(&[("other.proto", other), ("shop.proto", user)])
        .expect_err("the import is missing");
    for d in err.errors() {
        assert!(
            !d.message().contains("descriptor.proto")
                && !d
                    .help_text()
                    .unwrap_or_default()
                    .contains("descriptor.proto"),
            "{}: {:?}",
            d.message(),
            d.help_text()
        );
    }
    assert!(err.errors().iter().any(|d| d.code() == "unresolved-type"));
    // A file that does define the name, loaded but not imported, is the advice.
    let address = "syntax = \"proto3\";\npackage google.type;\nmessage PostalAddress {}\n";
    let other = "syntax = \"proto3\";\npackage other;\nimport \"google/type/postal_address.proto\";\nmessage O {}\n";
    let user =
        "syntax = \"proto3\";\npackage shop;\nmessage A { google.type.PostalAddress addr = 1; }\n";
    let err = compile_sources(&[
        ("google/type/postal_address.proto", address),
        ("other.proto", other),
        ("shop.proto", user),
    ])
    .expect_err("not imported");
    let d = &err.errors()[0];
    assert_eq!(d.code(), "missing-import");
    assert!(
        d.help_text()
            .unwrap_or_default()
            .contains("google/type/postal_address.proto"),
        "{:?}",
        d.help_text()
    );
}
