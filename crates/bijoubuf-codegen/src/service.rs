//! Services: a schema's `service` blocks as tonic server traits and clients.
//!
//! The shapes (a `FooServer` wrapping a `Foo` trait, a `FooClient<T>`, one method per
//! rpc for unary, server-, client- and bidi-streaming) are tonic's, emitted by
//! `tonic-build`'s codec-agnostic generator: this module describes each service to it
//! from the checked schema (method paths `/package.Service/Method`, the Rust paths of
//! the request and response types, the schema's comments) and names the codec, by
//! default `::bijoubuf_tonic::StrictCodec`. The generated code needs `tonic` and
//! `bijoubuf-tonic` as dependencies of the crate that includes it.

use bijoubuf_schema::{Comments, MethodDef, OptionValue, ServiceDef};
use proc_macro2::TokenStream;
use quote::{ToTokens, quote};

use crate::context::Context;
use crate::emit::doc_attrs;
use crate::names::{self, Scope};

/// The codec generated methods name unless `Options::codec_path` says otherwise.
pub(crate) const DEFAULT_CODEC: &str = "::bijoubuf_tonic::StrictCodec";

/// Names tonic-build's server module uses without a path, found by compiling a service of
/// each candidate name with every streaming shape: its generic parameters, what
/// `use tonic::codegen::*` brings in, and prelude names. The server's trait is named after
/// the service inside that module, so a service of one of these Rust names
/// (`service Body`) would hide it; such a service takes the next name (`Body_`), as one
/// whose modules a sub-package holds does. (`Service`, `Result`, `Future`, `Pin`, `Some`,
/// … compile as they are.)
pub(crate) const TONIC_SCOPE: &[&str] = &[
    "Arc",
    "B",
    "Body",
    "Box",
    "BoxFuture",
    "Clone",
    "CompressionEncoding",
    "Context",
    "Default",
    "EnabledCompressionEncodings",
    "InterceptedService",
    "Into",
    "Option",
    "Poll",
    "StdError",
    "T",
];

/// A server module and a client module for each service of `package`.
pub(crate) fn services(ctx: &Context<'_>, package: &str, services: &[&ServiceDef]) -> TokenStream {
    let mut out = TokenStream::new();
    if services.is_empty() {
        return out;
    }
    let mut builder = tonic_build::CodeGenBuilder::new();
    builder
        .emit_package(true)
        .build_transport(!ctx.opts.no_service_transport)
        .compile_well_known_types(true);
    for s in services {
        let svc = Service::new(ctx, package, s);
        let server = builder.generate_server(&svc, "");
        let client = builder.generate_client(&svc, "");
        // Both modules name each rpc's request and response types; a deprecated one is
        // allowed there and draws the lint in the code that implements or calls the
        // service.
        if s.methods
            .iter()
            .any(|m| ctx.is_deprecated(&m.input_type) || ctx.is_deprecated(&m.output_type))
        {
            out.extend(allow_deprecated_in(server));
            out.extend(allow_deprecated_in(client));
        } else {
            out.extend(server);
            out.extend(client);
        }
    }
    out
}

/// `module`, a module tonic-build generated, with `#![allow(deprecated)]` among the inner
/// `allow` it opens with (an outer `allow` beside those is clippy's
/// `mixed_attributes_style`).
fn allow_deprecated_in(module: TokenStream) -> TokenStream {
    match syn::parse2::<syn::ItemMod>(module.clone()) {
        Ok(mut m) => {
            m.attrs.push(syn::parse_quote!(#![allow(deprecated)]));
            m.into_token_stream()
        }
        // Not one module: the attribute goes on whatever item comes first.
        Err(_) => quote!(#[allow(deprecated)] #module),
    }
}

/// One service as `tonic-build` asks for it.
struct Service {
    name: String,
    package: String,
    identifier: String,
    methods: Vec<Method>,
    comments: Vec<String>,
}

/// One rpc as `tonic-build` asks for it; the types are already Rust paths.
struct Method {
    /// The Rust method name (`snake_case`, raw when a keyword).
    name: String,
    /// The schema's name, the last segment of the method path.
    identifier: String,
    codec: String,
    client_streaming: bool,
    server_streaming: bool,
    deprecated: bool,
    comments: Vec<String>,
    request: TokenStream,
    response: TokenStream,
}

impl Service {
    fn new(ctx: &Context<'_>, package: &str, s: &ServiceDef) -> Self {
        let codec = ctx
            .opts
            .codec_path
            .clone()
            .unwrap_or_else(|| DEFAULT_CODEC.to_string());
        let comments_on = !ctx.opts.no_comments.matches(&s.full_name);
        // tonic-build puts the server's items in `<service>_server` and the client's in
        // `<service>_client`, one module below the package's: the types are seen from
        // there, so paths start with `super::`.
        let inner = vec!["service".to_string()];
        // The rpcs' Rust names share the client's inherent methods with tonic's own
        // (`connect`, `new`, ...), and two rpcs may spell one snake-case name (`GetFoo`
        // and `get_foo`): a name taken is suffixed with `_`, in the schema's order.
        let mut taken = Scope::with(CLIENT_METHODS);
        let methods = s
            .methods
            .iter()
            .map(|m| Method {
                name: method_name(&mut taken, &m.name),
                identifier: m.name.clone(),
                codec: codec.clone(),
                client_streaming: m.client_streaming,
                server_streaming: m.server_streaming,
                deprecated: is_deprecated(m),
                comments: doc_lines(
                    &m.comments,
                    comments_on
                        && !ctx
                            .opts
                            .no_comments
                            .matches(&format!("{}.{}", s.full_name, m.name)),
                    &format!("The `{}` rpc.", m.name),
                ),
                request: ctx.path_to(&m.input_type, package, &inner),
                response: ctx.path_to(&m.output_type, package, &inner),
            })
            .collect();
        Service {
            name: ctx.service_name(&s.full_name),
            package: package.to_string(),
            identifier: s.name.clone(),
            methods,
            comments: doc_lines(
                &s.comments,
                comments_on,
                &format!("The `{}` service.", s.name),
            ),
        }
    }
}

/// The inherent methods tonic-build gives every client (`connect` only with transport:
/// taken always, so an rpc's Rust name does not depend on that option).
const CLIENT_METHODS: &[&str] = &[
    "connect",
    "new",
    "with_origin",
    "with_interceptor",
    "send_compressed",
    "accept_compressed",
    "max_decoding_message_size",
    "max_encoding_message_size",
];

/// The method's Rust name, unique among `taken`; tonic-build spells it with
/// `format_ident!`, which takes `r#` for keywords.
fn method_name(taken: &mut Scope, name: &str) -> String {
    names::ident(&taken.claim(&names::snake(name))).to_string()
}

fn is_deprecated(m: &MethodDef) -> bool {
    m.options
        .iter()
        .any(|o| o.name == "deprecated" && matches!(o.value, OptionValue::Bool(true)))
}

/// The schema comments as doc lines, through the same rules as messages' docs (fenced
/// when rustdoc would take them for code). `tonic-build` takes lines, not attributes.
fn doc_lines(comments: &Comments, enabled: bool, fallback: &str) -> Vec<String> {
    let attrs = doc_attrs(comments, enabled, fallback);
    let parsed = syn::parse::Parser::parse2(syn::Attribute::parse_outer, attrs);
    let mut lines = Vec::new();
    for attr in parsed.into_iter().flatten() {
        if let syn::Meta::NameValue(nv) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
        {
            lines.push(s.value());
        }
    }
    lines
}

impl tonic_build::Service for Service {
    type Comment = String;
    type Method = Method;

    fn name(&self) -> &str {
        &self.name
    }
    fn package(&self) -> &str {
        &self.package
    }
    fn identifier(&self) -> &str {
        &self.identifier
    }
    fn methods(&self) -> &[Method] {
        &self.methods
    }
    fn comment(&self) -> &[String] {
        &self.comments
    }
}

impl tonic_build::Method for Method {
    type Comment = String;

    fn name(&self) -> &str {
        &self.name
    }
    fn identifier(&self) -> &str {
        &self.identifier
    }
    fn codec_path(&self) -> &str {
        &self.codec
    }
    fn client_streaming(&self) -> bool {
        self.client_streaming
    }
    fn server_streaming(&self) -> bool {
        self.server_streaming
    }
    fn comment(&self) -> &[String] {
        &self.comments
    }
    fn deprecated(&self) -> bool {
        self.deprecated
    }
    fn request_response_name(&self, _proto_path: &str, _wkt: bool) -> (TokenStream, TokenStream) {
        (
            self.request.to_token_stream(),
            self.response.to_token_stream(),
        )
    }
}
