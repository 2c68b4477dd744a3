//! The plugin's parameter: `--bijoubuf_opt=lang=rust,services` on protoc's command
//! line, `opt: [lang=rust, services]` in buf.gen.yaml; both arrive as one
//! comma-separated string.

/// The language generated in one run (protoc runs the plugin once per `--bijoubuf_out`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    Rust,
    Ts,
    Go,
}

/// What the parameter asks for: the `bijoubuf compile` options of one language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Params {
    pub(crate) lang: Lang,
    /// `services`: servers and clients too (`compile --services`).
    pub(crate) services: bool,
    /// `ts_runtime=SPECIFIER` (`compile --ts-runtime`).
    pub(crate) ts_runtime: String,
    /// `go_module=PATH` (`compile --go-module`), required with `lang=go`.
    pub(crate) go_module: String,
    /// `go_layout=go-package` (`compile --go-layout`).
    pub(crate) go_by_go_package: bool,
    /// `rust_borrowed=PATH`, repeatable (`compile --rust-borrowed`).
    pub(crate) rust_borrowed: Vec<String>,
    /// `rust_dispatch=PATH`, repeatable (`compile --rust-dispatch`).
    pub(crate) rust_dispatch: Vec<String>,
}

/// Every parameter, for "did you mean" and the list in an error.
const NAMES: &[&str] = &[
    "lang",
    "services",
    "ts_runtime",
    "go_module",
    "go_layout",
    "rust_borrowed",
    "rust_dispatch",
];

/// The parameters that only one language reads.
const ONLY: &[(&str, &str)] = &[
    ("ts_runtime", "ts"),
    ("go_module", "go"),
    ("go_layout", "go"),
    ("rust_borrowed", "rust"),
    ("rust_dispatch", "rust"),
];

/// Reads the parameter string.
///
/// # Errors
/// The text for the response's `error`: an unknown name (with the close one meant), a
/// missing or repeated `lang`, a value a parameter does not take, a parameter of
/// another language, `lang=go` without `go_module`.
pub(crate) fn parse(parameter: &str) -> Result<Params, String> {
    let mut lang: Option<(Lang, &str)> = None;
    let mut params = Params {
        lang: Lang::Rust,
        services: false,
        ts_runtime: "bijoubuf".to_string(),
        go_module: String::new(),
        go_by_go_package: false,
        rust_borrowed: Vec::new(),
        rust_dispatch: Vec::new(),
    };
    let mut seen: Vec<&str> = Vec::new();
    for item in parameter
        .split(',')
        .map(str::trim)
        .filter(|i| !i.is_empty())
    {
        let (name, value) = match item.split_once('=') {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (item, None),
        };
        let needs = |what: &str| -> Result<&str, String> {
            match value {
                Some(v) if !v.is_empty() => Ok(v),
                _ => Err(format!(
                    "plugin parameter {name} needs a value: {name}={what}"
                )),
            }
        };
        match name {
            "lang" => {
                let v = needs("rust|ts|go")?;
                let l = match v {
                    "rust" => Lang::Rust,
                    "ts" => Lang::Ts,
                    "go" => Lang::Go,
                    other => {
                        return Err(format!(
                            "plugin parameter lang={other}: the language is rust, ts or go"
                        ));
                    }
                };
                if let Some((_, first)) = lang {
                    return Err(format!(
                        "plugin parameter lang given twice (lang={first}, lang={v}): run the \
                         plugin once per language, each with its own output directory"
                    ));
                }
                lang = Some((l, v));
                params.lang = l;
            }
            "services" => {
                params.services = match value {
                    None | Some("true") => true,
                    Some("false") => false,
                    Some(other) => {
                        return Err(format!(
                            "plugin parameter services={other}: write services (or \
                             services=true, services=false)"
                        ));
                    }
                };
            }
            "ts_runtime" => params.ts_runtime = needs("SPECIFIER")?.to_string(),
            "go_module" => params.go_module = needs("PATH")?.to_string(),
            "go_layout" => {
                params.go_by_go_package = match needs("proto-package|go-package")? {
                    "proto-package" => false,
                    "go-package" => true,
                    other => {
                        return Err(format!(
                            "plugin parameter go_layout={other}: the layout is proto-package \
                             or go-package"
                        ));
                    }
                };
            }
            "rust_borrowed" => params.rust_borrowed.push(needs("PATH")?.to_string()),
            "rust_dispatch" => params.rust_dispatch.push(needs("PATH")?.to_string()),
            unknown => {
                let hint = match bijoubuf_schema::similar(unknown, NAMES) {
                    Some(close) => format!("; did you mean {close}?"),
                    None => format!("; the parameters are {}", NAMES.join(", ")),
                };
                return Err(format!("unknown plugin parameter {unknown}{hint}"));
            }
        }
        seen.push(name);
    }
    let Some((lang, spelled)) = lang else {
        return Err(
            "missing plugin parameter lang: pass lang=rust, lang=ts or lang=go \
             (protoc: --bijoubuf_opt=lang=rust; buf.gen.yaml: opt: lang=rust)"
                .to_string(),
        );
    };
    for (name, only) in ONLY {
        if seen.contains(name) && *only != spelled {
            return Err(format!(
                "plugin parameter {name} applies to lang={only}, not lang={spelled}"
            ));
        }
    }
    if lang == Lang::Go && params.go_module.is_empty() {
        return Err(
            "lang=go needs the plugin parameter go_module=PATH, the Go import path of the \
             output directory"
                .to_string(),
        );
    }
    Ok(params)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_parameter_is_read() {
        let p =
            parse("lang=rust, services,rust_borrowed=.a,rust_borrowed=.b,rust_dispatch=.").unwrap();
        assert_eq!(p.lang, Lang::Rust);
        assert!(p.services);
        assert_eq!(p.rust_borrowed, [".a", ".b"]);
        assert_eq!(p.rust_dispatch, ["."]);
        let p = parse("lang=ts,ts_runtime=@acme/bijoubuf,services=false").unwrap();
        assert_eq!(
            (p.lang, p.ts_runtime.as_str(), p.services),
            (Lang::Ts, "@acme/bijoubuf", false)
        );
        let p = parse("lang=go,go_module=example.com/gen,go_layout=go-package").unwrap();
        assert_eq!(p.go_module, "example.com/gen");
        assert!(p.go_by_go_package);
    }

    #[test]
    fn bad_parameters_are_named() {
        let cases = [
            ("", "missing plugin parameter lang"),
            ("services", "missing plugin parameter lang"),
            (
                "lang=rust,servics",
                "unknown plugin parameter servics; did you mean services?",
            ),
            (
                "lang=rust,zzz",
                "unknown plugin parameter zzz; the parameters are lang, services",
            ),
            (
                "lang=java",
                "plugin parameter lang=java: the language is rust, ts or go",
            ),
            (
                "lang",
                "plugin parameter lang needs a value: lang=rust|ts|go",
            ),
            (
                "lang=rust,lang=ts",
                "plugin parameter lang given twice (lang=rust, lang=ts)",
            ),
            (
                "lang=rust,go_module=x",
                "plugin parameter go_module applies to lang=go, not lang=rust",
            ),
            (
                "lang=go",
                "lang=go needs the plugin parameter go_module=PATH",
            ),
            (
                "lang=go,go_module=m,go_layout=flat",
                "plugin parameter go_layout=flat",
            ),
            ("lang=ts,services=yes", "plugin parameter services=yes"),
        ];
        for (parameter, want) in cases {
            let e = parse(parameter).unwrap_err();
            assert!(e.starts_with(want), "{parameter:?}: {e}");
        }
    }
}
