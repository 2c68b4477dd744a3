//! What the generator is told: per-path choices and attributes.

/// A set of schema paths, matched the way `prost-build` matches them.
///
/// - `"."` matches everything.
/// - A path with a leading dot is a full name prefix, matched on name boundaries:
///   `".shop"` matches `shop.Order` and `shop.Order.id` but not `shopping.Cart`.
/// - A path without a leading dot is a suffix, matched on name boundaries:
///   `"Order.id"` matches `shop.v1.Order.id`.
#[derive(Clone, Debug, Default)]
pub(crate) struct PathSet {
    paths: Vec<String>,
}

impl PathSet {
    pub(crate) fn extend<I, S>(&mut self, paths: I)
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.paths
            .extend(paths.into_iter().map(|p| p.as_ref().to_string()));
    }

    /// The paths as configured.
    pub(crate) fn paths(&self) -> &[String] {
        &self.paths
    }

    /// Whether `full_name` (no leading dot) is selected.
    pub(crate) fn matches(&self, full_name: &str) -> bool {
        self.paths.iter().any(|p| path_matches(p, full_name))
    }
}

/// One selector against one full name (no leading dot).
pub(crate) fn path_matches(path: &str, full_name: &str) -> bool {
    if path == "." {
        return true;
    }
    match path.strip_prefix('.') {
        Some(prefix) => {
            full_name == prefix
                || full_name
                    .strip_prefix(prefix)
                    .is_some_and(|rest| rest.starts_with('.'))
        }
        None => {
            full_name == path
                || full_name
                    .strip_suffix(path)
                    .is_some_and(|rest| rest.ends_with('.'))
        }
    }
}

/// Code generation options. `bijoubuf-build`'s `Config` fills these; use them directly
/// when calling [`generate`](crate::generate) yourself.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub(crate) bytes: PathSet,
    pub(crate) boxed: PathSet,
    pub(crate) borrowed: PathSet,
    pub(crate) preserve: PathSet,
    pub(crate) dispatch: PathSet,
    pub(crate) table: PathSet,
    pub(crate) walk: PathSet,
    pub(crate) serde: PathSet,
    pub(crate) no_comments: PathSet,
    pub(crate) type_attrs: Vec<(String, String)>,
    pub(crate) message_attrs: Vec<(String, String)>,
    pub(crate) enum_attrs: Vec<(String, String)>,
    pub(crate) field_attrs: Vec<(String, String)>,
    pub(crate) extern_paths: Vec<(String, String)>,
    pub(crate) inside_runtime: bool,
    pub(crate) no_std: bool,
    pub(crate) services: bool,
    pub(crate) codec_path: Option<String>,
    /// `connect` left off generated clients (`service_transport(false)`).
    pub(crate) no_service_transport: bool,
}

impl Options {
    /// The defaults: strict types without an unknown-field member, `Vec<u8>` for bytes,
    /// comments kept, the well-known types taken from `::bijoubuf::wkt`.
    pub fn new() -> Self {
        Options::default()
    }

    /// `bytes` fields at these paths (singular, repeated elements and map values) become
    /// `bytes::Bytes` instead of `Vec<u8>`; the same bytes on the wire. The generated
    /// code then needs the runtime's `bytes` feature (`bijoubuf = { features =
    /// ["bytes"] }`); the type is the one the runtime re-exports, so the generated
    /// crate needs no `bytes` dependency of its own to compile.
    pub fn bytes<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.bytes.extend(paths);
        self
    }

    /// Message fields at these paths are boxed even when not recursive.
    pub fn boxed<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.boxed.extend(paths);
        self
    }

    /// Messages at these paths also get a borrowed twin, `FooRef<'a>` next to `Foo`,
    /// whose `string` and `bytes` fields are `&'a str` and `&'a [u8]` slices of the input
    /// (see `bijoubuf::MessageRef`). Every message a selected one reaches through its
    /// fields gets a twin too, so nested messages borrow as well; a reached type mapped
    /// to an external path (the well-known types) stays owned inside the twin.
    pub fn borrowed<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.borrowed.extend(paths);
        self
    }

    /// Messages at these paths get an `unknown_fields` member: a decode with
    /// `UnknownFieldPolicy::Preserve` keeps unknown records there and encoding re-emits
    /// them byte for byte (SPEC §8.2). Other messages have nowhere to keep them and
    /// refuse unknown records under every policy (`unknown-field` at the record's key),
    /// while a preserving parent still keeps its own.
    pub fn preserve_unknown_fields<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.preserve.extend(paths);
        self
    }

    /// Messages at these paths are decoded by *dispatch* whatever their size: `__decode`
    /// starts from the default and loops over the records the input holds, a `match` on
    /// each record's number handing the field to one of the runtime's shared reads. The
    /// other shape, the *walk*, asks for every declared field in number order, which
    /// costs a check per declared field whether present or not. Both accept the same
    /// inputs and refuse the others with the same error, offset and path;
    /// `decode_into` is the walk in both.
    ///
    /// Without this option, owned types of messages with 32 declared fields or more
    /// (oneof members included) dispatch and the others walk, as do all borrowed twins:
    /// measured on GoogleMessage1 (41 fields, most absent: owned decode faster, a tenth
    /// of the machine code; the twin's level or slower), OpenTelemetry's denser messages
    /// (level) and a 27-field message of small scalars, all present (slower). A path named here makes both the owned
    /// type and its twin dispatch; [`decode_walk`](Self::decode_walk) keeps selected
    /// messages on the walk. A path named by both dispatches.
    pub fn decode_dispatch<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.dispatch.extend(paths);
        self
    }

    /// Messages at these paths are decoded by a *table*: the generated code is a static
    /// table of the message's fields (number, name, offset in the struct, the shared
    /// read of its shape and codec), and one loop in the runtime, the same for every
    /// message, reads the records the input holds and writes each at its field's
    /// offset; oneof members go through a small generated function. The same inputs
    /// accepted and refused with the same error, offset and path as the walk and
    /// dispatch; `decode_into` is the walk. Generated code holds no `unsafe` (the
    /// runtime's `decode_table!` macro writes the offsets and checks each field's type).
    ///
    /// Opt-in: benches/RESULTS.md, "Table decoders generated", has what it measured
    /// (far less machine code, more instructions; slower on OpenTelemetry, about level
    /// on GoogleMessage1). A path
    /// named here makes both the owned type and its twin use a table, before
    /// [`decode_dispatch`](Self::decode_dispatch) and [`decode_walk`](Self::decode_walk);
    /// a message with a proto2 `required` field beyond its 64th field dispatches
    /// instead.
    pub fn decode_table<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.table.extend(paths);
        self
    }

    /// Messages at these paths are decoded by the walk whatever their size (see
    /// [`decode_dispatch`](Self::decode_dispatch)).
    pub fn decode_walk<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.walk.extend(paths);
        self
    }

    /// Messages and enums at these paths derive `serde::Serialize`/`Deserialize`, with
    /// fields renamed to their proto3 JSON names (the generated crate then depends on
    /// `serde` with the `derive` feature).
    pub fn serde<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.serde.extend(paths);
        self
    }

    /// Schema comments are not copied into doc comments at these paths.
    ///
    /// Elsewhere they are, made safe for rustdoc: a comment rustdoc would run as a
    /// doctest (indented or fenced code) is fenced as `text`; in the others square
    /// brackets and `<` are escaped and bare URLs put in angle brackets, so prose such as
    /// `Status: [Alpha]` or `<version>` raises no rustdoc warning, while markdown links
    /// and code spans stay as written.
    pub fn disable_comments<I, S>(&mut self, paths: I) -> &mut Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.no_comments.extend(paths);
        self
    }

    /// An attribute (e.g. `#[derive(Ord)]`) on every message, enum and oneof enum at
    /// `path`.
    pub fn type_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.type_attrs
            .push((path.as_ref().into(), attr.as_ref().into()));
        self
    }

    /// An attribute on every message struct at `path`.
    pub fn message_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.message_attrs
            .push((path.as_ref().into(), attr.as_ref().into()));
        self
    }

    /// An attribute on every enum (and oneof enum) at `path`.
    pub fn enum_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.enum_attrs
            .push((path.as_ref().into(), attr.as_ref().into()));
        self
    }

    /// An attribute on every field (struct member or oneof variant) at `path`
    /// (`.pkg.Message.field`).
    pub fn field_attribute(&mut self, path: impl AsRef<str>, attr: impl AsRef<str>) -> &mut Self {
        self.field_attrs
            .push((path.as_ref().into(), attr.as_ref().into()));
        self
    }

    /// Types under the proto path `proto_path` (`.google.type`) are not generated but
    /// referred to under `rust_path` (`::gtype`). `.google.protobuf` maps to
    /// `::bijoubuf::wkt` unless overridden.
    pub fn extern_path(
        &mut self,
        proto_path: impl AsRef<str>,
        rust_path: impl AsRef<str>,
    ) -> &mut Self {
        self.extern_paths
            .push((proto_path.as_ref().into(), rust_path.as_ref().into()));
        self
    }

    /// Name `String`, `Vec`, `Box` and `BTreeMap` through `::alloc` instead of `::std`,
    /// for `no_std` crates (which then need `extern crate alloc;` at their root).
    pub fn no_std(&mut self) -> &mut Self {
        self.no_std = true;
        self
    }

    /// Generate a tonic server trait and client for every `service` (see the crate docs,
    /// "Services"). Off by default: the generated code needs `tonic` and
    /// `bijoubuf-tonic`, which a crate that only stores messages should not pull in.
    /// Clients come with `connect` unless [`service_transport`](Self::service_transport)
    /// turns it off.
    pub fn services(&mut self, enable: bool) -> &mut Self {
        self.services = enable;
        self
    }

    /// The codec generated services name, a type taking the request and response types
    /// (default `::bijoubuf_tonic::StrictCodec`; `::bijoubuf_tonic::PreservingCodec`
    /// keeps unknown fields, or name an alias of `bijoubuf_tonic::Codec` of your own).
    pub fn codec_path(&mut self, path: impl Into<String>) -> &mut Self {
        self.codec_path = Some(path.into());
        self
    }

    /// Whether generated clients get `FooClient::connect(addr)`, which opens a
    /// `tonic::transport::Channel` and so needs tonic's `transport` feature. On by
    /// default, as `tonic-build`'s `build_transport`; `service_transport(false)` leaves it
    /// out, for crates on tonic without `transport` (clients are then made with
    /// `FooClient::new(channel)` over a channel of their own).
    pub fn service_transport(&mut self, enable: bool) -> &mut Self {
        self.no_service_transport = !enable;
        self
    }

    /// Whether [`services`](Self::services) is on.
    pub fn generates_services(&self) -> bool {
        self.services
    }

    /// Generate for the runtime crate itself (the well-known types): `crate::` paths and
    /// `alloc` instead of `std`. Not for users.
    #[doc(hidden)]
    pub fn inside_runtime(&mut self) -> &mut Self {
        self.inside_runtime = true;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_match_on_name_boundaries() {
        assert!(path_matches(".", "a.B"));
        assert!(path_matches(".shop", "shop.Order"));
        assert!(path_matches(".shop", "shop"));
        assert!(!path_matches(".shop", "shopping.Cart"));
        assert!(path_matches(".shop.Order", "shop.Order.id"));
        assert!(path_matches("Order.id", "shop.v1.Order.id"));
        assert!(path_matches("Order.id", "Order.id"));
        assert!(!path_matches("Order.id", "shop.BigOrder.id"));
        assert!(!path_matches("Order", "shop.Order.id"));
    }
}
