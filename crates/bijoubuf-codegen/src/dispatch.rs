//! The second shape of a generated decoder: *dispatch*.
//!
//! The walk (`message.rs`) asks the reader for every declared field in number order,
//! which costs a check per declared field, present or not, and inlines every field's
//! read into the decoder. A dispatch decoder starts from the type's default and loops
//! over the records the input holds: `Reader::record` gives the next record's number, a
//! `match` on it (a jump table) hands the field's member to one of the runtime's shared,
//! out-of-line reads (`implicit_here`, `optional_here`, …, one copy per shape and codec,
//! not per field), and any other number goes to `Reader::unknown_here`. Absent fields
//! cost nothing and the decoder is a table of calls.
//!
//! Both shapes keep every check with the same error kind, offset and path (the runtime's
//! `reader/dispatch.rs` says how). `__decode_into` stays the walk (its reads reuse the
//! allocations the value holds); `__decode`, `__decode_top`, `__decode_push` and
//! `__decode_some`, whose target is a fresh default, dispatch.

use bijoubuf_schema::MessageDef;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::emit::Emitter;
use crate::message::{Oneof, Plain, Shape, oneof_member};

/// Messages with at least this many declared fields (oneof members included) get a
/// dispatch decoder unless configured otherwise (see
/// [`Options::decode_dispatch`](crate::Options::decode_dispatch)).
///
/// Measured (benches/RESULTS.md, "Dispatch decoders"): on GoogleMessage1 (41 fields,
/// most absent) dispatch decodes owned values faster than the walk in a tenth of the
/// machine code; on OpenTelemetry's messages (2–16 fields, most present, strings and
/// messages) dispatch for every message was level with the walk or a few percent ahead;
/// on `wide.Wide` (27 fields, all present, mostly small scalars) it ran 7.5 % more
/// instructions and took about a fifth more time, a call per field where the walk's
/// reads are inline. The line sits between the two. Twins walk by default (their
/// dispatch measured level with the walk or up to 15 % slower on GoogleMessage1).
pub(crate) const DISPATCH_MIN_FIELDS: usize = 32;

/// A dispatch decoder's items: the `Decode` methods it replaces and the inherent method
/// that holds the loop.
pub(crate) struct Dispatch {
    /// `__decode`, `__decode_top`, `__decode_push` and `__decode_some`, for the `Decode`
    /// impl.
    pub(crate) methods: TokenStream,
    /// The body of the type's inherent `__bb_dispatch(&mut self, r)`.
    pub(crate) body: TokenStream,
}

impl Emitter<'_> {
    /// The walk's `__decode` (owned types and twins alike): `body` asks for every field
    /// in number order, then the message is built from `fields`.
    pub(crate) fn walk_decode(&self, body: TokenStream, fields: TokenStream) -> TokenStream {
        let bb = self.hidden();
        quote! {
            fn __decode(r: &mut #bb::Reader<'a>) -> #bb::Result<Self> {
                #body
                #bb::Ok(Self { #fields })
            }
        }
    }

    /// The decode methods of message `m`'s owned type or twin (`twin`), and the items
    /// dispatch or a table adds: a table's when [`tables`](Self::tables) (see
    /// `table.rs`; `ty` names the type in its `impl<'a> … for`), else dispatch's
    /// (`__decode`, `__decode_top`, `__decode_push`, `__decode_some`, the walk's
    /// `__decode_into`, and `__bb_dispatch` in `impl #head`) when
    /// [`dispatches`](Self::dispatches), else the walk's `walk_decode` and its in-place
    /// reads. `head` is the type as its inherent impl names it (`impl<'a> T<'a>` or
    /// `impl T`), under `allow_deprecated`; `lt` the reader's lifetime there.
    pub(crate) fn decode_methods(
        &self,
        m: &MessageDef,
        twin: bool,
        (plains, oneofs, preserve): (&[Plain<'_>], &[Oneof<'_>], bool),
        (allow_deprecated, head, lt, ty): (
            &Option<TokenStream>,
            TokenStream,
            TokenStream,
            TokenStream,
        ),
        walk_decode: TokenStream,
        into_body: TokenStream,
    ) -> (TokenStream, TokenStream) {
        if self.tables(m, plains) {
            let (methods, items) = self.table(
                m,
                (plains, oneofs, preserve),
                (allow_deprecated, head, lt, ty),
            );
            let into = self.decode_into(into_body);
            return (quote!(#methods #into), items);
        }
        if !self.dispatches(m, twin) {
            let in_place = self.decode_in_place(into_body);
            return (quote!(#walk_decode #in_place), TokenStream::new());
        }
        let bb = self.hidden();
        let d = self.dispatch(m, plains, oneofs, preserve);
        let (methods, body, into) = (d.methods, d.body, self.decode_into(into_body));
        (
            quote!(#methods #into),
            quote! {
                #allow_deprecated
                #head {
                    fn __bb_dispatch(&mut self, r: &mut #bb::Reader<#lt>) -> #bb::Result<()> {
                        #body
                    }
                }
            },
        )
    }

    /// Whether message `m`'s owned type (or, `twin`, its borrowed twin) is decoded by
    /// dispatch: the `decode_dispatch` paths force it, the `decode_walk` paths forbid it,
    /// else owned types with [`DISPATCH_MIN_FIELDS`] declared fields or more get it, and
    /// twins do not (measured: on GoogleMessage1 the twin's dispatch decoder was level
    /// with its walk or up to 15 % slower, where the owned type's was 7–14 % faster).
    pub(crate) fn dispatches(&self, m: &MessageDef, twin: bool) -> bool {
        if self.ctx.opts.dispatch.matches(&m.full_name) {
            return true;
        }
        if self.ctx.opts.walk.matches(&m.full_name) {
            return false;
        }
        !twin && m.fields.len() >= DISPATCH_MIN_FIELDS
    }

    /// The dispatch decoder of message `m` over its owned type's or twin's `plains` and
    /// `oneofs` (from [`fields`](Self::fields)); `preserve` when the type keeps unknown
    /// fields.
    pub(crate) fn dispatch(
        &self,
        m: &MessageDef,
        plains: &[Plain<'_>],
        oneofs: &[Oneof<'_>],
        preserve: bool,
    ) -> Dispatch {
        let bb = self.hidden();
        let alloc = self.alloc();
        let mut arms: Vec<TokenStream> = Vec::new();
        let mut seen: Vec<TokenStream> = Vec::new();
        let mut requires: Vec<TokenStream> = Vec::new();
        // Arms in field-number order: the order the walk asks in (the match does not
        // care; a reader of the generated code does).
        for f in &m.fields {
            let number = Literal::u32_unsuffixed(f.number);
            let name = &f.name;
            if let Some(p) = plains.iter().find(|p| p.def.number == f.number) {
                let (ident, codec) = (&p.ident, &p.codec);
                let read = match &p.shape {
                    Shape::Implicit => {
                        quote!(r.implicit_here::<#codec>(#name, &mut self.#ident)?)
                    }
                    Shape::Optional => {
                        quote!(r.optional_here::<#codec>(#name, &mut self.#ident)?)
                    }
                    Shape::Required => {
                        // One flag per required field, checked after `finish` in number
                        // order, as the walk's `require` calls are (SPEC §5.3).
                        let flag = quote::format_ident!("__seen_{}", ident);
                        seen.push(quote!(let mut #flag = false;));
                        requires.push(quote!(r.require(#flag.then_some(()), #name)?;));
                        quote! {{
                            r.required_here::<#codec>(#name, &mut self.#ident)?;
                            #flag = true;
                        }}
                    }
                    Shape::Repeated => {
                        quote!(r.repeated_here::<#codec>(#name, &mut self.#ident)?)
                    }
                    Shape::FixedRun => quote!(self.#ident = r.fixed_run_here::<#codec>(#name)?),
                    Shape::Map {
                        key,
                        value,
                        sorted: true,
                    } => quote!(self.#ident = r.sorted_map_here::<#key, #value>(#name)?),
                    Shape::Map { key, value, .. } => {
                        quote!(r.map_here::<#key, #value>(#name, &mut self.#ident)?)
                    }
                };
                arms.push(quote!(#number => #read,));
                continue;
            }
            let Some((o, (_, variant, codec, _))) = oneof_member(oneofs, f.number) else {
                continue;
            };
            let (ident, path) = (&o.ident, &o.enum_expr);
            // SPEC §5.4: a second member is refused at its key.
            arms.push(quote! {
                #number => {
                    let v = r.oneof_here::<#codec>(#name, self.#ident.is_some())?;
                    self.#ident = #bb::Some(#path::#variant(v));
                }
            });
        }
        let finish = if preserve {
            quote!(r.finish_into(&mut self.unknown_fields)?;)
        } else {
            quote!(r.finish()?;)
        };
        let body = quote! {
            #(#seen)*
            loop {
                match r.record()? {
                    0 => break,
                    #(#arms)*
                    n => r.unknown_here(n)?,
                }
            }
            #finish
            #(#requires)*
            #bb::Ok(())
        };
        let methods = quote! {
            fn __decode(r: &mut #bb::Reader<'a>) -> #bb::Result<Self> {
                let mut m = <Self as #bb::Default>::default();
                m.__bb_dispatch(r)?;
                #bb::Ok(m)
            }

            fn __decode_top(r: &mut #bb::Reader<'a>) -> #bb::Result<Self> {
                r.top_in_place(Self::__bb_dispatch)
            }

            fn __decode_push(r: &mut #bb::Reader<'a>, out: &mut #alloc::vec::Vec<Self>) -> #bb::Result<()> {
                match #bb::pushed_default(out) {
                    #bb::Some(m) => m.__bb_dispatch(r),
                    #bb::None => #bb::Ok(()),
                }
            }

            fn __decode_some(r: &mut #bb::Reader<'a>, v: &mut ::core::option::Option<Self>) -> #bb::Result<()> {
                v.insert(<Self as #bb::Default>::default()).__bb_dispatch(r)
            }
        };
        Dispatch { methods, body }
    }
}
