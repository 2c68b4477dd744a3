//! The third shape of a generated decoder: *table*.
//!
//! Where dispatch (`dispatch.rs`) generates a loop with a `match` per message, a table
//! decoder generates no loop at all: the message's fields become a static table, written
//! by the runtime's `decode_table!` macro (per field: number, name, shape, member,
//! codecs), and the runtime's one loop (`reader/table.rs`) reads every table message of
//! the program. Each entry points to a read shared by every field of its shape and
//! codec (dispatch's reads, the same checks, errors, offsets and paths). Oneof members,
//! whose value is an enum variant rather than a struct member, are read by a small
//! generated arm, `__bb_arm(&mut self, r, number)`, dispatch's arms for those fields.
//!
//! Generated code holds no `unsafe`: the macro writes the `unsafe impl` and checks each
//! member's type beside its `offset_of!`. `__decode_into` stays the walk.

use bijoubuf_schema::{FieldType, MessageDef, ScalarType};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::emit::Emitter;
use crate::message::{Oneof, Plain, Shape, oneof_member};

/// The `required` fields a table tracks (the runtime's `TABLE_REQUIRED_MAX`).
const REQUIRED_MAX: usize = 64;

/// Whether an implicit-presence field of type `ty` is read inside the runtime's loop
/// rather than through a call: its codec is one of the runtime's `InlineRead` codecs
/// (a codec that is not would fail to compile, never misread).
fn inline_read(ty: &FieldType) -> bool {
    match ty {
        FieldType::Enum(_) => true,
        FieldType::Scalar(s) => matches!(
            s,
            ScalarType::Int32
                | ScalarType::Int64
                | ScalarType::Uint32
                | ScalarType::Uint64
                | ScalarType::Bool
                | ScalarType::Double
                | ScalarType::Fixed64
                | ScalarType::String
        ),
        FieldType::Message(_) => false,
    }
}

impl Emitter<'_> {
    /// Whether message `m` is decoded by a table: named by `decode_table`, and its
    /// proto2 `required` fields among its first [`REQUIRED_MAX`] fields (the loop notes
    /// which it saw in one word; the others dispatch).
    pub(crate) fn tables(&self, m: &MessageDef, plains: &[Plain<'_>]) -> bool {
        if !self.ctx.opts.table.matches(&m.full_name) {
            return false;
        }
        let mut numbers: Vec<u32> = m.fields.iter().map(|f| f.number).collect();
        numbers.sort_unstable();
        plains
            .iter()
            .filter(|p| matches!(p.shape, Shape::Required))
            .all(|p| numbers.iter().position(|&n| n == p.def.number) < Some(REQUIRED_MAX))
    }

    /// The table decoder of message `m` over its owned type's or twin's `plains` and
    /// `oneofs`: the `Decode` methods it replaces (`__decode`, `__decode_push`,
    /// `__decode_some`) and its items (the `decode_table!` invocation, and the arm in
    /// `impl #head` when the message has oneofs). `ty` is the type as `impl<'a> … for`
    /// names it; `preserve` when it keeps unknown fields.
    pub(crate) fn table(
        &self,
        m: &MessageDef,
        (plains, oneofs, preserve): (&[Plain<'_>], &[Oneof<'_>], bool),
        (allow_deprecated, head, lt, ty): (
            &Option<TokenStream>,
            TokenStream,
            TokenStream,
            TokenStream,
        ),
    ) -> (TokenStream, TokenStream) {
        let bb = self.hidden();
        let alloc = self.alloc();
        let mut fields: Vec<(u32, TokenStream)> = Vec::new();
        let mut arms: Vec<TokenStream> = Vec::new();
        for f in &m.fields {
            let number = Literal::u32_unsuffixed(f.number);
            let name = &f.name;
            if let Some(p) = plains.iter().find(|p| p.def.number == f.number) {
                let (ident, codec) = (&p.ident, &p.codec);
                let entry = match &p.shape {
                    Shape::Implicit if inline_read(&p.def.ty) => {
                        quote!(#number #name implicit_inline #ident (#codec))
                    }
                    Shape::Implicit => quote!(#number #name implicit #ident (#codec)),
                    Shape::Optional => quote!(#number #name optional #ident (#codec)),
                    Shape::Required => quote!(#number #name required #ident (#codec)),
                    Shape::Repeated => quote!(#number #name repeated #ident (#codec)),
                    Shape::FixedRun => quote!(#number #name fixed_run #ident (#codec)),
                    Shape::Map {
                        key,
                        value,
                        sorted: true,
                    } => quote!(#number #name sorted_map #ident (#key, #value)),
                    Shape::Map { key, value, .. } => {
                        quote!(#number #name map #ident (#key, #value))
                    }
                };
                fields.push((f.number, entry));
                continue;
            }
            let Some((o, (_, variant, codec, _))) = oneof_member(oneofs, f.number) else {
                continue;
            };
            let (ident, path) = (&o.ident, &o.enum_expr);
            fields.push((f.number, quote!(#number #name member)));
            // SPEC §5.4: a second member is refused at its key.
            arms.push(quote! {
                #number => {
                    let v = r.oneof_here::<#codec>(#name, self.#ident.is_some())?;
                    self.#ident = #bb::Some(#path::#variant(v));
                }
            });
        }
        // The runtime's loop moves forward only: entries ascend by number.
        fields.sort_by_key(|(n, _)| *n);
        let entries = fields.iter().map(|(_, e)| e);
        let arm_fn = Ident::new("__bb_arm", Span::call_site());
        let (arm, arm_impl) = if arms.is_empty() {
            (TokenStream::new(), TokenStream::new())
        } else {
            (
                quote!(Self::#arm_fn),
                quote! {
                    #allow_deprecated
                    #head {
                        fn #arm_fn(&mut self, r: &mut #bb::Reader<#lt>, n: u32) -> #bb::Result<()> {
                            match n {
                                #(#arms)*
                                _ => r.unknown_here(n)?,
                            }
                            #bb::Ok(())
                        }
                    }
                },
            )
        };
        let unknown = if preserve {
            quote!(unknown_fields)
        } else {
            TokenStream::new()
        };
        let items = quote! {
            #bb::decode_table! {
                impl<'a> for #ty;
                arm: #arm;
                unknown: #unknown;
                fields: #(#entries);*
            }
            #arm_impl
        };
        let methods = quote! {
            fn __decode(r: &mut #bb::Reader<'a>) -> #bb::Result<Self> {
                let mut m = <Self as #bb::Default>::default();
                #bb::table_decode(r, &mut m)?;
                #bb::Ok(m)
            }

            fn __decode_top(r: &mut #bb::Reader<'a>) -> #bb::Result<Self> {
                r.top_in_place(|m, r| #bb::table_decode(r, m))
            }

            fn __decode_push(r: &mut #bb::Reader<'a>, out: &mut #alloc::vec::Vec<Self>) -> #bb::Result<()> {
                match #bb::pushed_default(out) {
                    #bb::Some(m) => #bb::table_decode(r, m),
                    #bb::None => #bb::Ok(()),
                }
            }

            fn __decode_some(r: &mut #bb::Reader<'a>, v: &mut ::core::option::Option<Self>) -> #bb::Result<()> {
                #bb::table_decode(r, v.insert(<Self as #bb::Default>::default()))
            }
        };
        (methods, items)
    }
}
