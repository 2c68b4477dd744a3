//! The checked generation model: where every type lands in Rust, which fields are
//! boxed, which messages can derive `Eq` and `Hash`.
//!
//! Built once from the schema before any token is emitted, so every decision that
//! spans types (names, recursion, float reachability, extern paths) is made here.

use std::collections::{BTreeSet, HashMap};

use bijoubuf_schema::{
    Cardinality, EnumDef, FieldDef, FieldType, MessageDef, ScalarType, Schema, TypeDef,
};
use proc_macro2::TokenStream;
use quote::quote;

use crate::Error;
use crate::names::{self, Scope};
use crate::options::{Options, path_matches};
use crate::service::TONIC_SCOPE;

/// Where a type lives in Rust.
#[derive(Clone, Debug)]
pub(crate) struct Loc {
    /// The proto package.
    pub(crate) package: String,
    /// Message modules between the package root and the type.
    pub(crate) modules: Vec<String>,
    /// The type's identifier.
    pub(crate) name: String,
    /// The module holding this message's nested types and oneofs (messages only).
    pub(crate) module: String,
    /// `Some(path)` when the type comes from elsewhere (`extern_path`).
    pub(crate) extern_path: Option<TokenStream>,
}

/// The model the emitters read.
pub(crate) struct Context<'s> {
    pub(crate) schema: &'s Schema,
    pub(crate) opts: &'s Options,
    locs: HashMap<String, Loc>,
    /// Messages with no float reachable: they derive `Eq` and `Hash`.
    eq: BTreeSet<String>,
    /// Singular message edges: (from, to) full names, for recursion.
    singular: HashMap<String, Vec<String>>,
    /// Oneof enum names by (message full name, oneof index).
    oneofs: HashMap<(String, usize), String>,
    /// Types the runtime's `wkt` module holds.
    runtime_wkt: BTreeSet<String>,
    /// Messages that get a borrowed twin: those the `borrowed` option selects and every
    /// message they reach through fields.
    borrowed: BTreeSet<String>,
    /// The twin's name of each message in `borrowed`, and of each of their oneof enums.
    ref_names: HashMap<String, String>,
    ref_oneofs: HashMap<(String, usize), String>,
    /// Each service's Rust name (its server trait; `FooServer` and `FooClient` derive from
    /// it), by full name.
    services: HashMap<String, String>,
}

/// The path of a well-known type below `bijoubuf::wkt` (nested types sit in modules).
fn wkt_path(modules: &[String], name: &str) -> String {
    let mut parts: Vec<String> = modules
        .iter()
        .map(|m| names::ident(m).to_string())
        .collect();
    parts.push(names::ident(name).to_string());
    parts.join("::")
}

/// What a scope names: the messages and enums declared in it.
struct Members<'s> {
    messages: Vec<&'s MessageDef>,
    enums: Vec<&'s EnumDef>,
}

impl<'s> Context<'s> {
    pub(crate) fn new(schema: &'s Schema, opts: &'s Options) -> Result<Self, Error> {
        let mut ctx = Context {
            schema,
            opts,
            locs: HashMap::new(),
            eq: BTreeSet::new(),
            singular: HashMap::new(),
            oneofs: HashMap::new(),
            runtime_wkt: BTreeSet::new(),
            borrowed: BTreeSet::new(),
            ref_names: HashMap::new(),
            ref_oneofs: HashMap::new(),
            services: HashMap::new(),
        };
        ctx.borrowed = borrowed_closure(schema, opts);
        for f in schema
            .files()
            .iter()
            .filter(|f| crate::WELL_KNOWN_FILES.contains(&f.name.as_str()))
        {
            let mut all = Vec::new();
            collect(&f.messages, &mut all);
            for m in all {
                ctx.runtime_wkt.insert(m.full_name.clone());
                ctx.runtime_wkt
                    .extend(m.enums.iter().map(|e| e.full_name.clone()));
            }
            ctx.runtime_wkt
                .extend(f.enums.iter().map(|e| e.full_name.clone()));
        }
        let mut packages: Vec<&str> = Vec::new();
        for f in schema.files() {
            if !packages.contains(&f.package.as_str()) {
                packages.push(&f.package);
            }
        }
        for pkg in packages {
            let mut members = Members {
                messages: Vec::new(),
                enums: Vec::new(),
            };
            for f in schema.files().iter().filter(|f| f.package == pkg) {
                members.messages.extend(f.messages.iter());
                members.enums.extend(f.enums.iter());
            }
            ctx.name_scope(pkg, &[], &members, None)?;
        }
        ctx.analyse();
        Ok(ctx)
    }

    /// Names the types of one scope (messages and enums first, then the oneof enums of
    /// `owner`, then message modules), then recurses into message modules.
    fn name_scope(
        &mut self,
        package: &str,
        modules: &[String],
        members: &Members<'s>,
        owner: Option<&'s MessageDef>,
    ) -> Result<(), Error> {
        let mut scope = Scope::default();
        if modules.is_empty() {
            // A package's root module also holds the modules of its sub-packages
            // (`a.b` is `a::b`), so message modules keep clear of those names.
            let prefix = format!("{package}.");
            for f in self.schema.files() {
                let rest = if package.is_empty() {
                    Some(f.package.as_str())
                } else {
                    f.package.strip_prefix(&prefix)
                };
                if let Some(seg) = rest
                    .and_then(|r| r.split('.').next())
                    .filter(|s| !s.is_empty())
                {
                    scope.claim_exact(&names::snake(seg));
                }
            }
            // tonic-build puts each service's server and client in modules of the
            // package's root: message modules keep clear of those too, whether or not
            // services are generated, so a message's path does not depend on the option.
            // Two services of one Rust name (`FooBar`, `foo_bar`) take distinct ones. A
            // service's modules are named after it and a sub-package's module cannot move
            // (its path is its name), so a service whose modules a sub-package holds
            // (package `a.foo_server` beside service `a.Foo`) takes the next name (`Foo_`,
            // modules `foo__server`); so does one named like what tonic's server module
            // names without a path ([`TONIC_SCOPE`]: `Body`, `T`, …) or like the handler
            // tonic declares there for one of its rpcs (`XSvc` for `rpc X`).
            let schema = self.schema;
            let mut services = Scope::default();
            for s in schema
                .files()
                .iter()
                .filter(|f| f.package == package)
                .flat_map(|f| &f.services)
            {
                let mut name = services.claim(&names::camel(&s.name));
                let taken = |name: &str| {
                    let module = names::tonic_snake(name);
                    scope.contains(&format!("{module}_server"))
                        || scope.contains(&format!("{module}_client"))
                        || TONIC_SCOPE.contains(&name)
                        || s.methods.iter().any(|m| name == format!("{}Svc", m.name))
                };
                while taken(&name) {
                    name = services.claim(&format!("{name}_"));
                }
                let module = names::tonic_snake(&name);
                scope.claim_exact(&format!("{module}_server"));
                scope.claim_exact(&format!("{module}_client"));
                self.services.insert(s.full_name.clone(), name);
            }
        }
        let mut msgs = Vec::new();
        for m in members.messages.iter().filter(|m| !m.map_entry) {
            msgs.push((*m, scope.claim(&names::camel(&m.name))));
        }
        for e in &members.enums {
            let name = scope.claim(&names::camel(&e.name));
            self.insert(&e.full_name, package, modules, name, String::new())?;
        }
        if let Some(owner) = owner {
            for (i, o) in owner.oneofs.iter().enumerate() {
                if !o.synthetic {
                    let name = scope.claim(&names::camel(&o.name));
                    self.oneofs.insert((owner.full_name.clone(), i), name);
                }
            }
        }
        let mut with_modules = Vec::new();
        for (m, name) in &msgs {
            with_modules.push((*m, name.clone(), scope.claim(&names::snake(&m.name))));
        }
        // Borrowed twins are named last, so selecting them renames nothing else.
        for (m, name) in &msgs {
            if self.borrowed.contains(&m.full_name) {
                let twin = scope.claim(&format!("{name}Ref"));
                self.ref_names.insert(m.full_name.clone(), twin);
            }
        }
        if let Some(owner) = owner.filter(|o| self.borrowed.contains(&o.full_name)) {
            for (i, o) in owner.oneofs.iter().enumerate() {
                if !o.synthetic {
                    let twin = scope.claim(&format!("{}Ref", names::camel(&o.name)));
                    self.ref_oneofs.insert((owner.full_name.clone(), i), twin);
                }
            }
        }
        for (m, name, module) in with_modules {
            self.insert(&m.full_name, package, modules, name, module.clone())?;
            let mut inner = modules.to_vec();
            inner.push(module);
            let nested = Members {
                messages: m.messages.iter().collect(),
                enums: m.enums.iter().collect(),
            };
            self.name_scope(package, &inner, &nested, Some(m))?;
        }
        Ok(())
    }

    /// The Rust name of the service `full_name` (see `services`).
    pub(crate) fn service_name(&self, full_name: &str) -> String {
        self.services
            .get(full_name)
            .cloned()
            .unwrap_or_else(|| panic!("service {full_name} was named"))
    }

    fn insert(
        &mut self,
        full_name: &str,
        package: &str,
        modules: &[String],
        name: String,
        module: String,
    ) -> Result<(), Error> {
        let extern_path = self.extern_for(full_name, package, modules, &name)?;
        self.locs.insert(
            full_name.to_string(),
            Loc {
                package: package.to_string(),
                modules: modules.to_vec(),
                name,
                module,
                extern_path,
            },
        );
        Ok(())
    }

    /// The Rust path of a type matched by an `extern_path` (longest proto path wins).
    fn extern_for(
        &self,
        full_name: &str,
        package: &str,
        modules: &[String],
        name: &str,
    ) -> Result<Option<TokenStream>, Error> {
        let mut table: Vec<(String, String)> = self.opts.extern_paths.clone();
        // The runtime ships the well-known types, so they map there unless the user
        // says otherwise; other `google.protobuf` types (descriptor.proto) are generated
        // like any other schema.
        if !self.opts.inside_runtime
            && !table.iter().any(|(p, _)| p == ".google.protobuf")
            && self.runtime_wkt.contains(full_name)
        {
            table.push((
                format!(".{full_name}"),
                format!("::bijoubuf::wkt::{}", wkt_path(modules, name)),
            ));
        }
        let best = table
            .iter()
            .filter(|(p, _)| p.starts_with('.') && path_matches(p, full_name))
            .max_by_key(|(p, _)| p.len());
        let Some((proto, rust)) = best else {
            return Ok(None);
        };
        let bad = |why: &str| Error::ExternPath {
            proto_path: proto.clone(),
            rust_path: rust.clone(),
            message: why.to_string(),
        };
        let root: syn::Path = syn::parse_str(rust).map_err(|e| bad(&e.to_string()))?;
        let prefix = &proto[1..];
        if prefix == full_name {
            return Ok(Some(quote!(#root)));
        }
        let pkg_rest = if prefix == package {
            ""
        } else if let Some(rest) = package
            .strip_prefix(prefix)
            .and_then(|r| r.strip_prefix('.'))
        {
            rest
        } else {
            return Err(bad("a proto path inside a message is not supported"));
        };
        let segs = pkg_rest
            .split('.')
            .filter(|s| !s.is_empty())
            .map(|s| names::ident(&names::snake(s)))
            .chain(modules.iter().map(|m| names::ident(m)));
        let name = names::ident(name);
        Ok(Some(quote!(#root #(:: #segs)* :: #name)))
    }

    /// Float reachability and singular-edge graph.
    fn analyse(&mut self) {
        let mut all: Vec<&MessageDef> = Vec::new();
        for f in self.schema.files() {
            collect(&f.messages, &mut all);
        }
        let mut direct_float = BTreeSet::new();
        let mut edges: HashMap<String, Vec<String>> = HashMap::new();
        for m in &all {
            for f in &m.fields {
                let (tys, singular): (Vec<&FieldType>, bool) = match &f.cardinality {
                    Cardinality::Map { value, .. } => (vec![value], false),
                    Cardinality::Repeated => (vec![&f.ty], false),
                    Cardinality::Single => (vec![&f.ty], true),
                };
                for ty in tys {
                    match ty {
                        FieldType::Scalar(ScalarType::Float | ScalarType::Double) => {
                            direct_float.insert(m.full_name.clone());
                        }
                        FieldType::Message(t) => {
                            edges
                                .entry(m.full_name.clone())
                                .or_default()
                                .push(t.clone());
                            if singular {
                                self.singular
                                    .entry(m.full_name.clone())
                                    .or_default()
                                    .push(t.clone());
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
        for m in &all {
            let reach = reachable(&edges, &m.full_name);
            if !direct_float.contains(&m.full_name)
                && !reach.iter().any(|t| direct_float.contains(t))
            {
                self.eq.insert(m.full_name.clone());
            }
        }
    }

    pub(crate) fn loc(&self, full_name: &str) -> Option<&Loc> {
        self.locs.get(full_name)
    }

    /// The enum name of a message's (non-synthetic) oneof.
    pub(crate) fn oneof_name(&self, message: &str, index: usize) -> &str {
        self.oneofs
            .get(&(message.to_string(), index))
            .map_or("Oneof", String::as_str)
    }

    /// The borrowed twin's name of message `full_name`, when it has one (an external
    /// type has none: it stays owned inside twins).
    pub(crate) fn ref_name(&self, full_name: &str) -> Option<&str> {
        let loc = self.locs.get(full_name)?;
        if loc.extern_path.is_some() {
            return None;
        }
        self.ref_names.get(full_name).map(String::as_str)
    }

    /// The borrowed twin's name of a message's (non-synthetic) oneof enum.
    pub(crate) fn ref_oneof_name(&self, message: &str, index: usize) -> &str {
        self.ref_oneofs
            .get(&(message.to_string(), index))
            .map_or("OneofRef", String::as_str)
    }

    /// The deprecation attributes of message `m`'s type, the same for its owned type
    /// and its borrowed twin (see [`MessageDeprecation`]).
    pub(crate) fn message_deprecation(&self, m: &MessageDef) -> MessageDeprecation {
        let allow = |on: bool| on.then(|| quote!(#[allow(deprecated)]));
        MessageDeprecation {
            item: m.deprecated.then(|| quote!(#[deprecated])),
            in_struct: allow(self.holds_deprecated(m)),
            impls: allow(self.impls_name_deprecated(m, false)),
            type_impls: allow(m.deprecated),
        }
    }

    /// `#[allow(deprecated)]` for a oneof's enum when one of its `members` is of a
    /// deprecated message type.
    pub(crate) fn oneof_allow_deprecated<'f>(
        &self,
        mut members: impl Iterator<Item = &'f FieldDef>,
    ) -> Option<TokenStream> {
        members
            .any(|f| matches!(&f.ty, FieldType::Message(t) if self.is_deprecated(t)))
            .then(|| quote!(#[allow(deprecated)]))
    }

    /// Whether message or enum `full_name` says `option deprecated = true`: its Rust type
    /// is `#[deprecated]`, so generated code that names it allows the lint.
    pub(crate) fn is_deprecated(&self, full_name: &str) -> bool {
        match self.schema.lookup(full_name) {
            Some(TypeDef::Message(m)) => m.deprecated,
            Some(TypeDef::Enum(e)) => e.deprecated,
            None => false,
        }
    }

    /// Whether a member of message `m`'s struct (a field outside its oneofs, whose enums
    /// are items of their own) holds a deprecated message, singly, repeated or as a map
    /// value: the struct allows the lint.
    pub(crate) fn holds_deprecated(&self, m: &MessageDef) -> bool {
        m.fields.iter().any(|f| {
            let real_oneof = f.oneof.is_some_and(|i| !m.oneofs[i].synthetic);
            !real_oneof && matches!(element_type(f), FieldType::Message(t) if self.is_deprecated(t))
        })
    }

    /// Whether the impls of message `m` (its owned type's or its twin's) name something
    /// deprecated: the message itself, a deprecated field, or a field whose message type
    /// is deprecated (a map's value included); with `enums` (the typed getters), also a
    /// field whose enum is deprecated or whose default is a deprecated value. Those impls
    /// allow the lint.
    pub(crate) fn impls_name_deprecated(&self, m: &MessageDef, enums: bool) -> bool {
        m.deprecated
            || m.fields.iter().any(|f| {
                f.deprecated
                    || match element_type(f) {
                        FieldType::Message(t) => self.is_deprecated(t),
                        FieldType::Enum(t) if enums => {
                            self.schema.enumeration(t).is_some_and(|e| {
                                e.deprecated
                                    || f.default.as_ref().is_some_and(|d| {
                                        e.values.iter().any(|v| &v.name == d && v.deprecated)
                                    })
                            })
                        }
                        FieldType::Enum(_) | FieldType::Scalar(_) => false,
                    }
            })
    }

    /// Whether the message derives `Eq` and `Hash`.
    pub(crate) fn is_eq(&self, full_name: &str) -> bool {
        self.eq.contains(full_name)
    }

    /// Whether a singular field of message type `to` inside `from` must be boxed: `to`
    /// leads back to `from` through singular message fields, or the config says so.
    pub(crate) fn is_boxed(&self, from: &str, field: &FieldDef, to: &str) -> bool {
        self.opts.boxed.matches(&field.full_name) || reachable(&self.singular, to).contains(from)
    }

    /// The path of type `full_name` as seen from inside `package`'s module `modules`.
    pub(crate) fn path_to(
        &self,
        full_name: &str,
        package: &str,
        modules: &[String],
    ) -> TokenStream {
        self.path_named(full_name, package, modules, None)
    }

    /// [`path_to`](Self::path_to), naming the type `name` when given (a borrowed twin,
    /// which lives next to its owned type).
    pub(crate) fn path_named(
        &self,
        full_name: &str,
        package: &str,
        modules: &[String],
        name: Option<&str>,
    ) -> TokenStream {
        let Some(loc) = self.locs.get(full_name) else {
            // The schema crate resolved every name; this cannot happen for a checked schema.
            let id = names::ident(&names::camel(full_name.rsplit('.').next().unwrap_or("")));
            return quote!(#id);
        };
        if let Some(p) = &loc.extern_path {
            return p.clone();
        }
        let name = names::ident(name.unwrap_or(&loc.name));
        let mut segs: Vec<TokenStream> = Vec::new();
        if loc.package == package {
            let common = modules
                .iter()
                .zip(&loc.modules)
                .take_while(|(a, b)| a == b)
                .count();
            for _ in common..modules.len() {
                segs.push(quote!(super));
            }
            for m in &loc.modules[common..] {
                let m = names::ident(m);
                segs.push(quote!(#m));
            }
        } else {
            // Up to the packages' common ancestor in the module tree (a package `a.b` is
            // module `a::b`), then down: the shortest path, and the same module.
            let (here, there) = (package_segments(package), package_segments(&loc.package));
            let common = here.iter().zip(&there).take_while(|(a, b)| a == b).count();
            for _ in 0..(here.len() - common) + modules.len() {
                segs.push(quote!(super));
            }
            for p in &there[common..] {
                let p = names::ident(p);
                segs.push(quote!(#p));
            }
            for m in &loc.modules {
                let m = names::ident(m);
                segs.push(quote!(#m));
            }
        }
        quote!(#(#segs ::)* #name)
    }
}

/// A package's module names (`google.type` → `google`, `type`).
pub(crate) fn package_segments(package: &str) -> Vec<String> {
    package
        .split('.')
        .filter(|s| !s.is_empty())
        .map(names::snake)
        .collect()
}

/// The messages the `borrowed` option selects and every message they reach through
/// fields of any cardinality (map values included): a twin's nested messages are twins.
fn borrowed_closure(schema: &Schema, opts: &Options) -> BTreeSet<String> {
    let mut all: Vec<&MessageDef> = Vec::new();
    for f in schema.files() {
        collect(&f.messages, &mut all);
    }
    let mut edges: HashMap<String, Vec<String>> = HashMap::new();
    for m in &all {
        for f in &m.fields {
            let ty = match &f.cardinality {
                Cardinality::Map { value, .. } => value,
                _ => &f.ty,
            };
            if let FieldType::Message(t) = ty {
                edges
                    .entry(m.full_name.clone())
                    .or_default()
                    .push(t.clone());
            }
        }
    }
    let mut out = BTreeSet::new();
    for m in all
        .iter()
        .filter(|m| !m.map_entry && opts.borrowed.matches(&m.full_name))
    {
        out.insert(m.full_name.clone());
        out.extend(reachable(&edges, &m.full_name));
    }
    out
}

pub(crate) fn collect<'a>(msgs: &'a [MessageDef], out: &mut Vec<&'a MessageDef>) {
    for m in msgs {
        out.push(m);
        collect(&m.messages, out);
    }
}

/// Every message reachable from `start` in one or more steps.
fn reachable(edges: &HashMap<String, Vec<String>>, start: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut stack = vec![start.to_string()];
    while let Some(n) = stack.pop() {
        for t in edges.get(&n).into_iter().flatten() {
            if seen.insert(t.clone()) {
                stack.push(t.clone());
            }
        }
    }
    seen
}

/// The type of one element of field `f`: a map's value type, else the field's type.
fn element_type(f: &FieldDef) -> &FieldType {
    match &f.cardinality {
        Cardinality::Map { value, .. } => value,
        _ => &f.ty,
    }
}

/// The deprecation attributes of a message's type (owned or borrowed). Generated code
/// reads and writes deprecated fields and types itself; a user's code that names them
/// draws the lint.
pub(crate) struct MessageDeprecation {
    /// `#[deprecated]` on the type of a deprecated message.
    pub(crate) item: Option<TokenStream>,
    /// `#[allow(deprecated)]` on the struct when a member outside its oneofs is of a
    /// deprecated message type.
    pub(crate) in_struct: Option<TokenStream>,
    /// `#[allow(deprecated)]` on the impls that read and write its fields, when they name
    /// anything deprecated.
    pub(crate) impls: Option<TokenStream>,
    /// `#[allow(deprecated)]` on the impls that name only the type itself.
    pub(crate) type_impls: Option<TokenStream>,
}
