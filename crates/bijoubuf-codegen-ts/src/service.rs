//! Services: one gRPC-web client class per `service`, over the runtime's `grpcweb` module.
//!
//! `class OrdersClient` takes a `grpcweb.Transport`; each unary rpc is a method returning
//! a `Promise` of the response, each server-streaming rpc a method returning an
//! `AsyncGenerator` of them. gRPC-web has no client streaming, so client- and
//! bidi-streaming rpcs get no method; the class's docs name them.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use bijoubuf_schema::ServiceDef;
use heck::ToLowerCamelCase;

use crate::{Emitter, claim};

impl Emitter<'_> {
    /// The client class of `s`.
    pub(crate) fn service(&mut self, s: &ServiceDef) {
        self.uses_runtime = true;
        let class = self.clients[&s.full_name].clone();
        let skipped: Vec<&str> = s
            .methods
            .iter()
            .filter(|m| m.client_streaming)
            .map(|m| m.name.as_str())
            .collect();
        let mut extra = format!(
            "A gRPC-web client of `{}` (binary framing over `fetch`; `conformance/RPC.md`).",
            s.full_name
        );
        if !skipped.is_empty() {
            let _ = write!(
                extra,
                " Not callable over gRPC-web, which has no client streaming: {}.",
                skipped.join(", ")
            );
        }
        self.doc_with(&s.comments, "", &[&extra]);
        let _ = writeln!(self.body, "export class {class} {{");
        let _ = writeln!(
            self.body,
            "  /** A client sending its calls through `transport`. */\n  constructor(readonly transport: $bb.grpcweb.Transport) {{}}"
        );
        let mut used = BTreeSet::from(["transport".to_string(), "constructor".to_string()]);
        // A method names its request and response types as values, which a parameter of
        // the same name would hide: such a parameter steps aside (`request$`).
        let param = |want: &str| {
            if self.declared.contains(want) {
                format!("{want}$")
            } else {
                want.to_string()
            }
        };
        let (request, options) = (param("request"), param("options"));
        for m in s.methods.iter().filter(|m| !m.client_streaming) {
            let input = self.type_ref(&m.input_type);
            let output = self.type_ref(&m.output_type);
            let name = claim(&mut used, m.name.to_lower_camel_case(), '_');
            let path = format!("/{}/{}", s.full_name, m.name);
            self.body.push('\n');
            self.doc(&m.comments, "  ");
            let (ret, call) = if m.server_streaming {
                (
                    format!("AsyncGenerator<{output}, void, undefined>"),
                    "serverStream",
                )
            } else {
                (format!("Promise<{output}>"), "unary")
            };
            let _ = writeln!(
                self.body,
                "  {name}({request}: {input}, {options}?: $bb.grpcweb.CallOptions): {ret} {{\n    return $bb.grpcweb.{call}(this.transport, {path:?}, {input}, {output}, {request}, {options});\n  }}"
            );
        }
        let _ = writeln!(self.body, "}}\n");
    }
}
