//! Borrowed twins: `FooRef<'a>` next to `Foo` for the messages the `borrowed` option
//! selects and every message they reach.
//!
//! A twin has the owned type's members in the same order, with `string` as `&'a str`,
//! `bytes` as `&'a [u8]` and nested messages as their twins (a message mapped to an
//! external path stays owned). Its size, write and decode steps come from the same walk
//! over the fields as the owned type's ([`Emitter::fields`]); only the element codecs
//! differ (`StrRef`, `BytesRef`, `Msg<BarRef<'a>>`). It implements the runtime's
//! `Encode` and `Decode<'a>` (the hidden contract, the owned type's too: one walk for
//! both encoding passes and one decode body; the name, field numbers and unknown-field
//! storage come from the owned type, its `Encode::Schema`) and the public
//! `MessageRef<'a>`, and converts both ways with its owned twin.

use bijoubuf_schema::{Cardinality, FieldDef, FieldType, MessageDef, ScalarType};
use proc_macro2::TokenStream;
use quote::quote;

use crate::Error;
use crate::emit::{Emitter, doc_attrs};
use crate::message::{Fields, Oneof, Plain, Shape, Walk, fixed_width};
use crate::names;

/// Which way a conversion goes.
#[derive(Clone, Copy, PartialEq)]
enum Dir {
    /// `&Foo` → `FooRef<'_>`.
    Lend,
    /// `&FooRef<'_>` → `Foo`.
    Own,
}

impl Emitter<'_> {
    /// The twin of message `m` (its items next to `m`, and its oneof enums for `m`'s
    /// module), or nothing when `m` has none. `plains` and `oneofs` are the owned type's.
    pub(crate) fn twin(
        &self,
        m: &MessageDef,
        plains: &[Plain<'_>],
        oneofs: &[Oneof<'_>],
    ) -> Result<(TokenStream, TokenStream), Error> {
        let Some(twin_name) = self.ctx.ref_name(&m.full_name) else {
            return Ok((TokenStream::new(), TokenStream::new()));
        };
        let Some(loc) = self.ctx.loc(&m.full_name) else {
            return Ok((TokenStream::new(), TokenStream::new()));
        };
        let rt = self.rt();
        let bb = self.hidden();
        let name = names::ident(&loc.name);
        let twin = names::ident(twin_name);
        let inner = self.child(&loc.module);
        let preserve = self.ctx.opts.preserve.matches(&m.full_name);
        let eq = self.ctx.is_eq(&m.full_name);
        let Fields {
            plains: tplains,
            oneofs: toneofs,
            decls,
            decode_stmts,
            require_stmts,
            inits,
            into_stmts,
            into_tail,
        } = self.fields(m, true)?;
        let Walk {
            body: walk_body,
            param: walk_param,
            kind: walk_kind,
        } = self.walk(m, &tplains, &toneofs);
        let walk_kind = walk_kind.map(|k| quote!(const WALK: #bb::WalkKind = #bb::WalkKind::#k;));

        // A twin with no reference of its own (only nested twins, which may lead back
        // to it) still has the lifetime, through a marker member.
        let uses_lifetime = decls.iter().any(|d| {
            let d = d.to_string();
            d.contains("& 'a") || d.contains("FixedRun < 'a")
        });
        let (marker_member, marker_init) = if uses_lifetime {
            (TokenStream::new(), TokenStream::new())
        } else {
            (
                quote! {
                    #[doc(hidden)]
                    pub _borrow: ::core::marker::PhantomData<&'a ()>,
                },
                quote!(_borrow: ::core::marker::PhantomData,),
            )
        };
        let (unknown_member, unknown_get, unknown_finish, unknown_init, unknown_into, unknown_conv) =
            if preserve {
                (
                    quote! {
                        /// Unknown field records kept by a preserving decode, re-emitted on
                        /// encode (SPEC §8.2).
                        pub unknown_fields: #rt::UnknownFields,
                    },
                    quote! {
                        fn __unknown(&self) -> &#rt::UnknownFields {
                            &self.unknown_fields
                        }
                    },
                    quote!(let unknown_fields = r.finish()?;),
                    quote!(unknown_fields,),
                    quote!(r.finish_into(&mut self.unknown_fields)?;),
                    quote!(unknown_fields: ::core::clone::Clone::clone(&self.unknown_fields),),
                )
            } else {
                (
                    TokenStream::new(),
                    // The contract's default: no records (the owned type's
                    // `KEEPS_UNKNOWN_FIELDS` is `false`).
                    TokenStream::new(),
                    quote!(r.finish()?;),
                    TokenStream::new(),
                    quote!(r.finish()?;),
                    TokenStream::new(),
                )
            };
        let eq_derive = eq.then(|| quote!(, Eq, Hash));
        // As on the owned type: the twin of a deprecated message is deprecated too.
        let crate::context::MessageDeprecation {
            item: deprecated,
            in_struct: allow_in_struct,
            impls: allow_deprecated,
            type_impls: allow_type,
        } = self.ctx.message_deprecation(m);
        let docs = doc_attrs(
            &m.comments,
            false,
            &format!(
                "The `{}` message borrowing its strings and bytes from the input: the \
                 borrowed twin of [`{1}`](struct@{1}).",
                m.full_name, loc.name
            ),
        );

        // Conversions, member by member (both types have the same member names).
        let mut lend = Vec::new();
        let mut own = Vec::new();
        for p in plains {
            lend.push(self.member_conv(m, p, Dir::Lend));
            own.push(self.member_conv(m, p, Dir::Own));
        }
        for (o, t) in oneofs.iter().zip(&toneofs) {
            lend.push(self.oneof_conv(m, o, t, Dir::Lend));
            own.push(self.oneof_conv(m, o, t, Dir::Own));
        }

        let mut nested = TokenStream::new();
        for t in toneofs.iter().filter(|t| t.twin_enum) {
            nested.extend(inner.oneof_twin(m, t, eq));
        }

        let into_body = quote! {
            #(#into_stmts)*
            #unknown_into
            #(#into_tail)*
        };
        // The decode methods: the walk's, or dispatch's beside the walk's `_into`.
        let walk_decode = self.walk_decode(
            quote!(#(#decode_stmts)* #unknown_finish #(#require_stmts)*),
            quote!(#(#inits,)* #unknown_init #marker_init),
        );
        let (decode_methods, dispatch_impl) = self.decode_methods(
            m,
            true,
            (&tplains, &toneofs, preserve),
            (
                &allow_deprecated,
                quote!(impl<'a> #twin<'a>),
                quote!('a),
                quote!(#twin<'a>),
            ),
            walk_decode,
            into_body,
        );
        let items = quote! {
            #docs
            #[derive(Clone, Debug, Default, PartialEq #eq_derive)]
            #deprecated
            #allow_in_struct
            pub struct #twin<'a> {
                #(#decls)*
                #unknown_member
                #marker_member
            }

            #allow_deprecated
            impl<'a> #bb::Encode for #twin<'a> {
                type Schema = #name;
                #walk_kind
                #unknown_get

                fn __walk<'v, __P: #bb::Pass<'v>>(&'v self, #walk_param: &mut __P) -> __P::Out {
                    #walk_body
                }
            }

            #allow_deprecated
            impl<'a> #bb::Decode<'a> for #twin<'a> {
                #decode_methods
            }
            #dispatch_impl

            #allow_type
            impl<'a> #rt::MessageRef<'a> for #twin<'a> {
                type Owned = #name;
            }

            #allow_deprecated
            #[allow(
                clippy::redundant_closure,
                clippy::clone_on_copy,
                clippy::map_clone,
                clippy::option_as_ref_deref,
                clippy::useless_asref
            )]
            impl #name {
                /// This value as its borrowed twin, borrowing its strings and bytes.
                pub fn borrowed(&self) -> #twin<'_> {
                    #twin {
                        #(#lend,)*
                        #unknown_conv
                        #marker_init
                    }
                }
            }

            #allow_deprecated
            #[allow(
                clippy::redundant_closure,
                clippy::clone_on_copy,
                clippy::map_clone,
                clippy::option_as_ref_deref,
                clippy::useless_asref
            )]
            impl<'a> #twin<'a> {
                /// The owned twin of this value: strings and bytes copied.
                pub fn to_owned(&self) -> #name {
                    #name {
                        #(#own,)*
                        #unknown_conv
                    }
                }
            }

            #allow_type
            impl<'a> ::core::convert::From<&'a #name> for #twin<'a> {
                fn from(m: &'a #name) -> Self {
                    m.borrowed()
                }
            }

            #allow_type
            impl<'a> ::core::convert::From<&#twin<'a>> for #name {
                fn from(m: &#twin<'a>) -> Self {
                    m.to_owned()
                }
            }

            #allow_type
            impl<'a> ::core::convert::From<#twin<'a>> for #name {
                fn from(m: #twin<'a>) -> Self {
                    m.to_owned()
                }
            }
        };
        Ok((items, nested))
    }

    /// The twin enum of a oneof, inside the message's module.
    fn oneof_twin(&self, m: &MessageDef, o: &Oneof<'_>, eq: bool) -> TokenStream {
        let def = &m.oneofs[o.index];
        let name = &o.enum_name;
        let docs = doc_attrs(
            &def.comments,
            false,
            &format!("The members of oneof `{}`, borrowed.", def.name),
        );
        let eq_derive = eq.then(|| quote!(, Eq, Hash));
        let allow_deprecated = self
            .ctx
            .oneof_allow_deprecated(o.members.iter().map(|(f, ..)| *f));
        let variants = o.members.iter().map(|(f, v, _, ty)| {
            let vdocs = doc_attrs(
                &f.comments,
                false,
                &format!("Field `{}` = {}.", f.name, f.number),
            );
            quote!(#vdocs #v(#ty))
        });
        quote! {
            #docs
            #[derive(Clone, Debug, PartialEq #eq_derive)]
            #[allow(clippy::large_enum_variant)]
            #allow_deprecated
            pub enum #name<'a> {
                #(#variants,)*
            }
        }
    }

    /// `member: <converted self.member>` for a plain member.
    fn member_conv(&self, m: &MessageDef, p: &Plain<'_>, dir: Dir) -> TokenStream {
        let ident = &p.ident;
        let f = p.def;
        let value = match &f.cardinality {
            Cardinality::Map { value, .. } => value,
            _ => &f.ty,
        };
        let x = quote!(x);
        let expr = match &p.shape {
            Shape::Implicit | Shape::Required => {
                let c = self.element_conv(m, f, &f.ty, true, dir, x);
                quote!({
                    let x = &self.#ident;
                    #c
                })
            }
            Shape::Optional => {
                let c = self.element_conv(m, f, &f.ty, true, dir, x);
                quote!(self.#ident.as_ref().map(|x| #c))
            }
            // The twin's member is a `FixedRun` (`p` is the owned type's member).
            Shape::Repeated | Shape::FixedRun if fixed_width(&f.ty) => match dir {
                Dir::Lend => quote!(::core::convert::From::from(&self.#ident)),
                Dir::Own => quote!(self.#ident.to_vec()),
            },
            Shape::Repeated | Shape::FixedRun => {
                let c = self.element_conv(m, f, &f.ty, false, dir, x);
                quote!(self.#ident.iter().map(|x| #c).collect())
            }
            Shape::Map { .. } => {
                let Cardinality::Map { key, .. } = &f.cardinality else {
                    return quote!(#ident: ::core::default::Default::default());
                };
                let kc = self.element_conv(m, f, &FieldType::Scalar(*key), false, dir, quote!(k));
                let vc = self.element_conv(m, f, value, false, dir, quote!(v));
                quote!(self.#ident.iter().map(|(k, v)| (#kc, #vc)).collect())
            }
        };
        quote!(#ident: #expr)
    }

    /// `member: <converted oneof>`, matching the owned enum `o` and the twin's `t`.
    fn oneof_conv(&self, m: &MessageDef, o: &Oneof<'_>, t: &Oneof<'_>, dir: Dir) -> TokenStream {
        let ident = &o.ident;
        if !t.twin_enum {
            return quote!(#ident: ::core::clone::Clone::clone(&self.#ident));
        }
        let (from, to) = match dir {
            Dir::Lend => (&o.enum_expr, &t.enum_expr),
            Dir::Own => (&t.enum_expr, &o.enum_expr),
        };
        let arms = o.members.iter().map(|(f, v, ..)| {
            let c = self.element_conv(m, f, &f.ty, true, dir, quote!(x));
            quote!(#from::#v(x) => #to::#v(#c))
        });
        quote!(#ident: self.#ident.as_ref().map(|v| match v { #(#arms,)* }))
    }

    /// One element `x` (an expression of type `&T`) converted: owned to twin (`Lend`) or
    /// back (`Own`).
    fn element_conv(
        &self,
        owner: &MessageDef,
        field: &FieldDef,
        ty: &FieldType,
        may_box: bool,
        dir: Dir,
        x: TokenStream,
    ) -> TokenStream {
        let alloc = self.alloc();
        match ty {
            FieldType::Scalar(ScalarType::String) => match dir {
                Dir::Lend => quote!(#x.as_str()),
                Dir::Own => quote!(#alloc::string::String::from(*#x)),
            },
            FieldType::Scalar(ScalarType::Bytes) => match dir {
                Dir::Lend => quote!(&#x[..]),
                Dir::Own if self.ctx.opts.bytes.matches(&field.full_name) => {
                    let bb = self.hidden();
                    quote!(#bb::bytes::Bytes::copy_from_slice(#x))
                }
                Dir::Own => quote!(#x.to_vec()),
            },
            FieldType::Scalar(_) | FieldType::Enum(_) => quote!(*#x),
            FieldType::Message(t) => {
                let Some(twin) = self.ctx.ref_name(t) else {
                    return quote!(::core::clone::Clone::clone(#x));
                };
                let conv = match dir {
                    Dir::Lend => {
                        let path = self.path_to(t);
                        quote!(#path::borrowed(#x))
                    }
                    Dir::Own => {
                        let path = self
                            .ctx
                            .path_named(t, &self.package, &self.modules, Some(twin));
                        quote!(#path::to_owned(#x))
                    }
                };
                if may_box && self.ctx.is_boxed(&owner.full_name, field, t) {
                    quote!(#alloc::boxed::Box::new(#conv))
                } else {
                    conv
                }
            }
        }
    }
}
