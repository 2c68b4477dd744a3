//! Messages: the struct, its `Message` impl (the schema's facts) and the hidden
//! contract's `Encode` and `Decode<'a>` impls, accessors, and the module of nested types.
//!
//! The contract is straight-line functions over the runtime's building blocks, one call per
//! field in ascending field number (SPEC §4.1): the walk that both encoding passes run
//! (`__walk`, generic over the pass), and a decode that asks for each known field once,
//! in order, and ends with `Reader::finish` (then `Reader::require` for proto2
//! `required`, SPEC §5.3).

use bijoubuf_schema::{Cardinality, FieldDef, FieldType, MessageDef, Presence, ScalarType};
use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use crate::Error;
use crate::emit::{Emitter, attrs_for, doc_attrs, hidden_alias};
use crate::names::{self, Scope};

/// Methods of `Message` an accessor must not shadow.
pub(crate) const TRAIT_METHODS: &[&str] = &[
    "unknown_fields",
    "encoded_len",
    "encode",
    "encode_to_vec",
    "encode_length_delimited",
    "encode_length_delimited_to_vec",
    "decode",
    "decode_with",
    "decode_length_delimited",
    "decode_length_delimited_with",
];

/// How a field is stored and which runtime calls read and write it.
pub(crate) enum Shape {
    /// `T`, default omitted (SPEC §5.1).
    Implicit,
    /// `Option<T>` (SPEC §5.2).
    Optional,
    /// `T`, always written, required on decode (SPEC §5.3).
    Required,
    /// `Vec<T>` (SPEC §6.1).
    Repeated,
    /// In a borrowed twin, a repeated fixed-width scalar: `bijoubuf::FixedRun<'a, T>`, a
    /// view of the run's bytes (SPEC §6.2).
    FixedRun,
    /// `BTreeMap<K, V>`, or in a borrowed twin (`sorted`) `bijoubuf::SortedMap<K, V>`
    /// (SPEC §6.3).
    Map {
        key: TokenStream,
        value: TokenStream,
        sorted: bool,
    },
}

/// One struct member that is a plain field (not a oneof).
pub(crate) struct Plain<'m> {
    pub(crate) def: &'m FieldDef,
    pub(crate) ident: Ident,
    local: Ident,
    pub(crate) shape: Shape,
    /// The element or value codec.
    pub(crate) codec: TokenStream,
}

/// A oneof member: (field, variant, codec, variant type).
pub(crate) type Member<'m> = (&'m FieldDef, Ident, TokenStream, TokenStream);

/// A real oneof: its member field and its enum.
pub(crate) struct Oneof<'m> {
    pub(crate) ident: Ident,
    local: Ident,
    /// The enum's path in expressions and patterns (no lifetime argument).
    pub(crate) enum_expr: TokenStream,
    pub(crate) enum_name: Ident,
    /// (field, variant, codec, variant type)
    pub(crate) members: Vec<Member<'m>>,
    pub(crate) index: usize,
    /// In a borrowed twin: the enum is a twin of its own (some member borrows); else the
    /// owned enum is used as is.
    pub(crate) twin_enum: bool,
}

/// The oneof that holds the field numbered `number`, and its member entry (field,
/// variant, codec, variant type); `None` for a field outside every oneof.
pub(crate) fn oneof_member<'o, 'm>(
    oneofs: &'o [Oneof<'m>],
    number: u32,
) -> Option<(&'o Oneof<'m>, &'o Member<'m>)> {
    oneofs.iter().find_map(|o| {
        o.members
            .iter()
            .find(|(mf, ..)| mf.number == number)
            .map(|m| (o, m))
    })
}

impl Emitter<'_> {
    /// The codec and Rust type of one element of `ty` inside message `owner`.
    pub(crate) fn element(
        &self,
        owner: &MessageDef,
        field: &FieldDef,
        ty: &FieldType,
        may_box: bool,
        twin: bool,
    ) -> Result<(TokenStream, TokenStream), Error> {
        let alloc = self.alloc();
        let p = self.hidden();
        Ok(match ty {
            FieldType::Scalar(ScalarType::String) if twin => {
                (quote!(#p::StrRef<'a>), quote!(&'a ::core::primitive::str))
            }
            FieldType::Scalar(ScalarType::Bytes) if twin => (
                quote!(#p::BytesRef<'a>),
                quote!(&'a [::core::primitive::u8]),
            ),
            FieldType::Message(t) if twin && self.ctx.ref_name(t).is_some() => {
                let path =
                    self.ctx
                        .path_named(t, &self.package, &self.modules, self.ctx.ref_name(t));
                let path = quote!(#path<'a>);
                if may_box && self.ctx.is_boxed(&owner.full_name, field, t) {
                    (quote!(#p::BoxMsg<#path>), quote!(#alloc::boxed::Box<#path>))
                } else {
                    (quote!(#p::Msg<#path>), path)
                }
            }
            FieldType::Scalar(s) => {
                if *s == ScalarType::Bytes && self.ctx.opts.bytes.matches(&field.full_name) {
                    // The runtime's `bytes` feature: the type is named through the
                    // runtime so it is the very `bytes::Bytes` its codec stores.
                    return Ok((quote!(#p::SharedBytes), quote!(#p::bytes::Bytes)));
                }
                scalar(*s, &p, &alloc)
            }
            FieldType::Enum(_) => (quote!(#p::Enum), quote!(i32)),
            FieldType::Message(t) => {
                let path = self.path_to(t);
                if may_box && self.ctx.is_boxed(&owner.full_name, field, t) {
                    (quote!(#p::BoxMsg<#path>), quote!(#alloc::boxed::Box<#path>))
                } else {
                    (quote!(#p::Msg<#path>), path)
                }
            }
        })
    }

    pub(crate) fn message(&self, m: &MessageDef) -> Result<TokenStream, Error> {
        let Some(loc) = self.ctx.loc(&m.full_name) else {
            return Ok(TokenStream::new());
        };
        if loc.extern_path.is_some() || m.map_entry {
            return Ok(TokenStream::new());
        }
        let rt = self.rt();
        let bb = self.hidden();
        let name = names::ident(&loc.name);
        let module = names::ident(&loc.module);
        let inner = self.child(&loc.module);
        let preserve = self.ctx.opts.preserve.matches(&m.full_name);
        let serde = self.ctx.opts.serde.matches(&m.full_name);
        let eq = self.ctx.is_eq(&m.full_name);

        let Fields {
            plains,
            oneofs,
            decls,
            decode_stmts,
            require_stmts,
            inits,
            into_stmts,
            into_tail,
        } = self.fields(m, false)?;
        let Walk {
            body: walk_body,
            param: walk_param,
            kind: walk_kind,
        } = self.walk(m, &plains, &oneofs);
        let walk_kind = walk_kind.map(|k| quote!(const WALK: #bb::WalkKind = #bb::WalkKind::#k;));
        let unknown_into = if preserve {
            quote!(r.finish_into(&mut self.unknown_fields)?;)
        } else {
            quote!(r.finish()?;)
        };
        // A type without storage keeps the contract's defaults (`KEEPS_UNKNOWN_FIELDS =
        // false`, an empty `__unknown`): the reader then refuses unknown records at their
        // key even under `Preserve` (SPEC §8.1), so `finish` gives nothing back.
        let (unknown_member, keeps, unknown_get, unknown_finish, unknown_init) = if preserve {
            let skip = serde.then(|| quote!(#[serde(skip)]));
            (
                quote! {
                    /// Unknown field records kept by a preserving decode, re-emitted on
                    /// encode (SPEC §8.2).
                    #skip
                    pub unknown_fields: #rt::UnknownFields,
                },
                quote!(
                    const KEEPS_UNKNOWN_FIELDS: bool = true;
                ),
                quote! {
                    fn __unknown(&self) -> &#rt::UnknownFields {
                        &self.unknown_fields
                    }
                },
                quote!(let unknown_fields = r.finish()?;),
                quote!(unknown_fields,),
            )
        } else {
            (
                TokenStream::new(),
                TokenStream::new(),
                TokenStream::new(),
                quote!(r.finish()?;),
                TokenStream::new(),
            )
        };

        let docs = doc_attrs(
            &m.comments,
            self.comments_on(&m.full_name),
            &format!("The `{}` message.", m.full_name),
        );
        let mut attrs = attrs_for(&self.ctx.opts.type_attrs, &m.full_name)?;
        attrs.extend(attrs_for(&self.ctx.opts.message_attrs, &m.full_name)?);
        let eq_derive = eq.then(|| quote!(, Eq, Hash));
        let serde_derive = serde.then(|| {
            quote! {
                #[derive(::serde::Serialize, ::serde::Deserialize)]
                #[serde(default)]
            }
        });
        let crate::context::MessageDeprecation {
            item: deprecated,
            in_struct: allow_in_struct,
            impls: allow_deprecated,
            type_impls: allow_type,
        } = self.ctx.message_deprecation(m);
        let short = &m.name;
        let full = &m.full_name;
        let package = &self.package;
        let numbers = m.fields.iter().map(|f| Literal::u32_unsuffixed(f.number));
        let accessors = self.accessors(m, &plains)?;
        let accessors = if accessors.is_empty() || !self.ctx.impls_name_deprecated(m, true) {
            accessors
        } else {
            quote!(#[allow(deprecated)] #accessors)
        };

        // The module of nested types and oneof enums.
        let mut nested = TokenStream::new();
        for nm in &m.messages {
            nested.extend(inner.message(nm)?);
        }
        for ne in &m.enums {
            nested.extend(inner.enumeration(ne)?);
        }
        for o in &oneofs {
            nested.extend(inner.oneof_enum(m, o, eq, serde)?);
        }
        let (twin_items, twin_nested) = self.twin(m, &plains, &oneofs)?;
        nested.extend(twin_nested);
        // `pkg.defaults.Defaults` puts module `defaults` inside module `defaults`: the
        // names come from the schema, so clippy::module_inception is expected there.
        let enclosing = self
            .modules
            .last()
            .cloned()
            .or_else(|| self.package.rsplit('.').next().map(names::snake));
        let inception = (enclosing.as_deref() == Some(loc.module.as_str()))
            .then(|| quote!(#[allow(clippy::module_inception)]));
        let module_item = (!nested.is_empty()).then(|| {
            let nested = hidden_alias(&rt, nested);
            // `struct@`: a message may be named like a derive macro (`Default`, `Hash`).
            let mdoc = format!(" Nested types and oneofs of [`{0}`](struct@{0}).", loc.name);
            quote! {
                #[doc = #mdoc]
                #inception
                pub mod #module {
                    #nested
                }
            }
        });

        let into_body = quote! {
            #(#into_stmts)*
            #unknown_into
            #(#into_tail)*
        };
        // The decode methods: the walk's, or dispatch's beside the walk's `_into`.
        let walk_decode = self.walk_decode(
            quote!(#(#decode_stmts)* #unknown_finish #(#require_stmts)*),
            quote!(#(#inits,)* #unknown_init),
        );
        let (decode_methods, dispatch_impl) = self.decode_methods(
            m,
            false,
            (&plains, &oneofs, preserve),
            (
                &allow_deprecated,
                quote!(impl #name),
                quote!('_),
                quote!(#name),
            ),
            walk_decode,
            into_body,
        );
        Ok(quote! {
            #docs
            #[derive(Clone, Debug, Default, PartialEq #eq_derive)]
            #serde_derive
            #deprecated
            #allow_in_struct
            #(#attrs)*
            pub struct #name {
                #(#decls)*
                #unknown_member
            }

            #allow_type
            impl #rt::Message for #name {
                const NAME: &'static str = #short;
                const FULL_NAME: &'static str = #full;
                const PACKAGE: &'static str = #package;
                const FIELD_NUMBERS: &'static [u32] = &[#(#numbers),*];
                #keeps
            }

            #allow_deprecated
            impl #bb::Encode for #name {
                type Schema = Self;
                #walk_kind
                #unknown_get

                fn __walk<'v, __P: #bb::Pass<'v>>(&'v self, #walk_param: &mut __P) -> __P::Out {
                    #walk_body
                }
            }

            #allow_deprecated
            impl<'a> #bb::Decode<'a> for #name {
                #decode_methods
            }
            #dispatch_impl

            #accessors
            #twin_items
            #module_item
        })
    }

    /// The members and the size, write and decode steps of message `m`, for its owned
    /// type or (`twin`) its borrowed twin: one walk over the fields for both.
    pub(crate) fn fields<'m>(&self, m: &'m MessageDef, twin: bool) -> Result<Fields<'m>, Error> {
        let Some(loc) = self.ctx.loc(&m.full_name) else {
            return Err(Error::Internal {
                package: self.package.clone(),
                message: format!("no location for {}", m.full_name),
            });
        };
        let rt = self.rt();
        let bb = self.hidden();
        let alloc = self.alloc();
        let module = names::ident(&loc.module);
        let inner = self.child(&loc.module);
        let serde = self.ctx.opts.serde.matches(&m.full_name) && !twin;

        // Member names: one scope for struct members (reserving the unknown-field
        // member), one for decode locals (also reserving the reader and the binding
        // `v` the oneof steps use).
        let mut members = Scope::with(&["unknown_fields"]);
        let mut locals = Scope::with(&["unknown_fields", "r", "v"]);
        let mut plains: Vec<Plain<'_>> = Vec::new();
        let mut oneofs: Vec<Oneof<'_>> = Vec::new();
        // (declaration index, member tokens) so members keep declaration order.
        let mut decls: Vec<(usize, TokenStream)> = Vec::new();

        for f in m.fields_in_declaration_order() {
            let real_oneof = f.oneof.filter(|&i| !m.oneofs[i].synthetic);
            if let Some(i) = real_oneof {
                if oneofs.iter().any(|o| o.index == i) {
                    continue;
                }
                let o = &m.oneofs[i];
                let claimed = members.claim(&names::snake(&o.name));
                let ident = names::ident(&claimed);
                let local = names::ident(&locals.claim(&claimed));
                let mut variants = Scope::default();
                let mut ms = Vec::new();
                for &n in &o.fields {
                    let Some(mf) = m.field(n) else { continue };
                    let vname = names::ident(&variants.claim(&names::camel(&mf.name)));
                    // The variant's type is written inside the module, the codec in the
                    // impl outside it.
                    let (_, vty) = inner.element(m, mf, &mf.ty, true, twin)?;
                    let (codec, _) = self.element(m, mf, &mf.ty, true, twin)?;
                    ms.push((mf, vname, codec, vty));
                }
                // A twin's oneof whose members borrow nothing keeps the owned enum.
                let twin_enum = twin && ms.iter().any(|(.., t)| borrows(t));
                let enum_name = if twin_enum {
                    names::ident(self.ctx.ref_oneof_name(&m.full_name, i))
                } else {
                    names::ident(self.ctx.oneof_name(&m.full_name, i))
                };
                let enum_expr = quote!(#module::#enum_name);
                let enum_path = if twin_enum {
                    quote!(#module::#enum_name<'a>)
                } else {
                    enum_expr.clone()
                };
                let docs = doc_attrs(
                    &o.comments,
                    self.comments_on(&m.full_name),
                    &format!("The `{}` oneof.", o.name),
                );
                let flatten = serde.then(|| quote!(#[serde(flatten)]));
                let fattrs = if twin {
                    Vec::new()
                } else {
                    attrs_for(
                        &self.ctx.opts.field_attrs,
                        &format!("{}.{}", m.full_name, o.name),
                    )?
                };
                decls.push((
                    f.index,
                    quote! {
                        #docs
                        #flatten
                        #(#fattrs)*
                        pub #ident: ::core::option::Option<#enum_path>,
                    },
                ));
                oneofs.push(Oneof {
                    ident,
                    local,
                    enum_expr,
                    enum_name,
                    members: ms,
                    index: i,
                    twin_enum,
                });
                continue;
            }
            let claimed = members.claim(&names::snake(&f.name));
            let ident = names::ident(&claimed);
            let local = names::ident(&locals.claim(&claimed));
            let (shape, codec, ty) = match &f.cardinality {
                Cardinality::Map { key, value } => {
                    let (kc, kt) = if twin && *key == ScalarType::String {
                        (quote!(#bb::StrRef<'a>), quote!(&'a ::core::primitive::str))
                    } else {
                        scalar(*key, &bb, &alloc)
                    };
                    let (vc, vt) = self.element(m, f, value, false, twin)?;
                    // A twin's map is its entries in one vector, appended as the decoder
                    // checks their order: no tree to build.
                    let ty = if twin {
                        quote!(#rt::SortedMap<#kt, #vt>)
                    } else {
                        quote!(#alloc::collections::BTreeMap<#kt, #vt>)
                    };
                    (
                        Shape::Map {
                            key: kc,
                            value: vc,
                            sorted: twin,
                        },
                        TokenStream::new(),
                        ty,
                    )
                }
                Cardinality::Repeated => {
                    let (c, t) = self.element(m, f, &f.ty, false, twin)?;
                    if twin && fixed_width(&f.ty) {
                        (Shape::FixedRun, c, quote!(#rt::FixedRun<'a, #t>))
                    } else {
                        (Shape::Repeated, c, quote!(#alloc::vec::Vec<#t>))
                    }
                }
                Cardinality::Single => {
                    let (c, t) = self.element(m, f, &f.ty, true, twin)?;
                    match f.presence {
                        Presence::Implicit => (Shape::Implicit, c, t),
                        Presence::Required => (Shape::Required, c, t),
                        Presence::Explicit => {
                            (Shape::Optional, c, quote!(::core::option::Option<#t>))
                        }
                    }
                }
            };
            let docs = doc_attrs(
                &f.comments,
                self.comments_on(&f.full_name),
                &format!("Field `{}` = {}.", f.name, f.number),
            );
            let rename = serde.then(|| {
                let j = &f.json_name;
                quote!(#[serde(rename = #j)])
            });
            let deprecated = f.deprecated.then(|| quote!(#[deprecated]));
            let fattrs = if twin {
                Vec::new()
            } else {
                attrs_for(&self.ctx.opts.field_attrs, &f.full_name)?
            };
            decls.push((
                f.index,
                quote! {
                    #docs
                    #deprecated
                    #rename
                    #(#fattrs)*
                    pub #ident: #ty,
                },
            ));
            plains.push(Plain {
                def: f,
                ident,
                local,
                shape,
                codec,
            });
        }
        decls.sort_by_key(|(i, _)| *i);
        let decls: Vec<TokenStream> = decls.into_iter().map(|(_, t)| t).collect();

        // Decode: one step per field in number order (SPEC §4.1).
        let mut decode_stmts: Vec<TokenStream> = Vec::new();
        let mut require_stmts: Vec<TokenStream> = Vec::new();
        // `__decode_into`: the same reads into `self`'s members (`decode_into`).
        let mut into_stmts: Vec<TokenStream> = Vec::new();
        let mut into_requires: Vec<TokenStream> = Vec::new();
        for o in &oneofs {
            let local = &o.local;
            decode_stmts.push(quote!(let mut #local = #bb::None;));
            // Read in place: the oneof's own field, emptied first (SPEC §5.4's check then
            // asks it), each member read into the variant stored there.
            let ident = &o.ident;
            into_stmts.push(quote!(self.#ident = #bb::None;));
        }
        for f in &m.fields {
            let number = Literal::u32_unsuffixed(f.number);
            let proto_name = &f.name;
            if let Some(p) = plains.iter().find(|p| p.def.number == f.number) {
                let (ident, local, codec) = (&p.ident, &p.local, &p.codec);
                match &p.shape {
                    Shape::Implicit => {
                        decode_stmts.push(
                            quote!(let #local = r.implicit::<#codec>(#number, #proto_name)?;),
                        );
                        into_stmts.push(quote!(r.implicit_into::<#codec>(#number, #proto_name, &mut self.#ident)?;));
                    }
                    Shape::Optional => {
                        decode_stmts.push(
                            quote!(let #local = r.optional::<#codec>(#number, #proto_name)?;),
                        );
                        into_stmts.push(quote!(r.optional_into::<#codec>(#number, #proto_name, &mut self.#ident)?;));
                    }
                    Shape::Required => {
                        decode_stmts.push(
                            quote!(let #local = r.optional::<#codec>(#number, #proto_name)?;),
                        );
                        require_stmts.push(quote!(let #local = r.require(#local, #proto_name)?;));
                        into_stmts.push(quote!(let #local = r.required_into::<#codec>(#number, #proto_name, &mut self.#ident)?;));
                        into_requires.push(quote!(r.require(#local, #proto_name)?;));
                    }
                    Shape::FixedRun => {
                        decode_stmts.push(
                            quote!(let #local = r.fixed_run::<#codec>(#number, #proto_name)?;),
                        );
                        // Only twins hold this shape.
                        into_stmts.push(
                            quote!(self.#ident = r.fixed_run::<#codec>(#number, #proto_name)?;),
                        );
                    }
                    Shape::Repeated => {
                        decode_stmts.push(
                            quote!(let #local = r.repeated::<#codec>(#number, #proto_name)?;),
                        );
                        into_stmts.push(quote!(r.repeated_into::<#codec>(#number, #proto_name, &mut self.#ident)?;));
                    }
                    Shape::Map {
                        key,
                        value,
                        sorted: true,
                    } => {
                        decode_stmts.push(
                            quote!(let #local = r.sorted_map::<#key, #value>(#number, #proto_name)?;),
                        );
                        // Only twins hold this shape.
                        into_stmts.push(
                            quote!(self.#ident = r.sorted_map::<#key, #value>(#number, #proto_name)?;),
                        );
                    }
                    Shape::Map { key, value, .. } => {
                        decode_stmts.push(
                            quote!(let #local = r.map::<#key, #value>(#number, #proto_name)?;),
                        );
                        into_stmts.push(quote!(r.map_into::<#key, #value>(#number, #proto_name, &mut self.#ident)?;));
                    }
                }
                continue;
            }
            let Some((o, (_, variant, codec, _))) = oneof_member(&oneofs, f.number) else {
                continue;
            };
            let (local, path, oident) = (&o.local, &o.enum_expr, &o.ident);
            // SPEC §5.4: a second member is refused at its key.
            let step = quote! {
                if let #bb::Some(v) = r.oneof::<#codec>(#number, #proto_name, #local.is_some())? {
                    #local = #bb::Some(#path::#variant(v));
                }
            };
            decode_stmts.push(step);
            into_stmts.push(quote! {
                r.oneof_into::<#codec, _, _>(
                    #number, #proto_name, &mut self.#oident, #bb::oneof_member!(#path::#variant),
                )?;
            });
        }

        let mut inits: Vec<TokenStream> = Vec::new();
        for p in &plains {
            inits.push(init(&p.ident, &p.local));
        }
        for o in &oneofs {
            inits.push(init(&o.ident, &o.local));
        }
        Ok(Fields {
            plains,
            oneofs,
            decls,
            decode_stmts,
            require_stmts,
            inits,
            into_stmts,
            into_tail: into_requires,
        })
    }

    /// The field walk of message `m` (its owned type's or its twin's `plains` and
    /// `oneofs`, from [`fields`](Self::fields)): one pass call per field in number order
    /// (SPEC §4.1), summed, which both encoding passes run.
    pub(crate) fn walk(&self, m: &MessageDef, plains: &[Plain<'_>], oneofs: &[Oneof<'_>]) -> Walk {
        let bb = self.hidden();
        let mut terms: Vec<TokenStream> = Vec::new();
        let mut first_is_match = false;
        let mut run: Option<Run> = None;
        for f in &m.fields {
            let number = Literal::u32_unsuffixed(f.number);
            if let Some(p) = plains.iter().find(|p| p.def.number == f.number) {
                flush(&mut run, &mut terms, &mut first_is_match, &bb);
                let (ident, codec) = (&p.ident, &p.codec);
                terms.push(match &p.shape {
                    Shape::Implicit => quote!(p.implicit::<#codec>(#number, &self.#ident)),
                    Shape::Optional => {
                        quote!(p.optional::<#codec>(#number, self.#ident.as_ref()))
                    }
                    Shape::Required => quote!(p.explicit::<#codec>(#number, &self.#ident)),
                    Shape::FixedRun => {
                        // A decoded run's bytes go back as one LEN record, which is what
                        // the run's values would be written as; a run made from values
                        // is written from them.
                        quote!(match self.#ident.__parts() {
                            #bb::Ok(b) => p.implicit::<#bb::BytesRef<'a>>(#number, b),
                            #bb::Err(vs) => p.repeated::<#codec>(#number, vs),
                        })
                    }
                    Shape::Repeated => quote!(p.repeated::<#codec>(#number, &self.#ident)),
                    Shape::Map {
                        key,
                        value,
                        sorted: true,
                    } => {
                        quote!(p.map_el(#number, &self.#ident, &#bb::Of::<#key>::NEW, &#bb::Of::<#value>::NEW))
                    }
                    Shape::Map { key, value, .. } => {
                        quote!(p.map::<#key, #value>(#number, &self.#ident))
                    }
                });
                continue;
            }
            let Some((o, (_, variant, codec, _))) = oneof_member(oneofs, f.number) else {
                continue;
            };
            let path = &o.enum_expr;
            // Consecutive members of one oneof share one `match`: at most one of them
            // is set.
            match &mut run {
                Some(r) if r.index == o.index => {}
                _ => {
                    flush(&mut run, &mut terms, &mut first_is_match, &bb);
                    run = Some(Run {
                        index: o.index,
                        ident: o.ident.clone(),
                        arms: Vec::new(),
                    });
                }
            }
            if let Some(r) = &mut run {
                r.arms.push(Arm {
                    pat: quote!(#bb::Some(#path::#variant(v))),
                    call: quote!(p.explicit::<#codec>(#number, v)),
                });
            }
        }
        flush(&mut run, &mut terms, &mut first_is_match, &bb);

        // A sum cannot start with a `match` in tail position (it would end the
        // statement there), so a leading oneof term is bound first.
        let body = match terms.split_first() {
            None => quote!(#bb::Default::default()),
            Some((first, rest)) if first_is_match && !rest.is_empty() => quote! {
                let out = #first;
                out #(+ #rest)*
            },
            Some(_) => quote!(#(#terms)+*),
        };
        let param = if terms.is_empty() {
            quote!(_p)
        } else {
            quote!(p)
        };
        // A message with many scalar fields is written, when it has no unknown records,
        // through a copy of the writer's state that stays in registers (the runtime's
        // `LocalWriter`), which pays for its copying only when scalar fields far
        // outnumber the fields that open a message, a run or a map (those are written
        // through the caller's writer; see `LocalWriter` for the measurements).
        let (mut scalars, mut composites) = (0usize, 0usize);
        for f in &m.fields {
            let real_oneof = f.oneof.is_some() && !f.proto3_optional;
            match (&f.cardinality, &f.ty) {
                (Cardinality::Single, FieldType::Message(_)) => composites += 1,
                (Cardinality::Single, _) if !real_oneof => scalars += 1,
                (Cardinality::Single, _) => {}
                _ => composites += 1,
            }
        }
        // Generated code's order is fixed here, so a value without unknown records may
        // go through the passes that do not check it (a message without fields keeps
        // the default).
        let kind = if terms.is_empty() {
            None
        } else if scalars >= 8 + 8 * composites {
            Some(quote!(Local))
        } else {
            Some(quote!(Plain))
        };
        Walk { body, param, kind }
    }

    /// The enum of one oneof, emitted inside the message's module.
    fn oneof_enum(
        &self,
        m: &MessageDef,
        o: &Oneof<'_>,
        eq: bool,
        serde: bool,
    ) -> Result<TokenStream, Error> {
        let def = &m.oneofs[o.index];
        let name = &o.enum_name;
        let full = format!("{}.{}", m.full_name, def.name);
        let docs = doc_attrs(
            &def.comments,
            self.comments_on(&m.full_name),
            &format!("The members of oneof `{}`.", def.name),
        );
        let mut attrs = attrs_for(&self.ctx.opts.type_attrs, &full)?;
        attrs.extend(attrs_for(&self.ctx.opts.enum_attrs, &full)?);
        let eq_derive = eq.then(|| quote!(, Eq, Hash));
        let serde_derive =
            serde.then(|| quote!(#[derive(::serde::Serialize, ::serde::Deserialize)]));
        // A message variant's size follows the schema, so clippy may find the enum
        // lopsided; boxing would cost every user (use `boxed` for that).
        let allow_large = o
            .members
            .iter()
            .any(|(f, ..)| matches!(f.ty, FieldType::Message(_)))
            .then(|| quote!(#[allow(clippy::large_enum_variant)]));
        let allow_deprecated = self
            .ctx
            .oneof_allow_deprecated(o.members.iter().map(|(f, ..)| *f));
        let mut variants = Vec::new();
        for (f, vname, _, ty) in &o.members {
            let vdocs = doc_attrs(
                &f.comments,
                self.comments_on(&f.full_name),
                &format!("Field `{}` = {}.", f.name, f.number),
            );
            let rename = serde.then(|| {
                let j = &f.json_name;
                quote!(#[serde(rename = #j)])
            });
            let fattrs = attrs_for(&self.ctx.opts.field_attrs, &f.full_name)?;
            variants.push(quote! {
                #vdocs
                #rename
                #(#fattrs)*
                #vname(#ty)
            });
        }
        Ok(quote! {
            #docs
            #[derive(Clone, Debug, PartialEq #eq_derive)]
            #serde_derive
            #allow_large
            #allow_deprecated
            #(#attrs)*
            pub enum #name {
                #(#variants,)*
            }
        })
    }
}

/// What [`Emitter::fields`] builds for one message type: its members and decode steps.
pub(crate) struct Fields<'m> {
    pub(crate) plains: Vec<Plain<'m>>,
    pub(crate) oneofs: Vec<Oneof<'m>>,
    pub(crate) decls: Vec<TokenStream>,
    pub(crate) decode_stmts: Vec<TokenStream>,
    pub(crate) require_stmts: Vec<TokenStream>,
    pub(crate) inits: Vec<TokenStream>,
    /// `__decode_into`'s reads, then its `require` checks and oneof assignments.
    pub(crate) into_stmts: Vec<TokenStream>,
    pub(crate) into_tail: Vec<TokenStream>,
}

/// What [`Emitter::walk`] builds: the body of `__walk` and its parameter's name.
pub(crate) struct Walk {
    pub(crate) body: TokenStream,
    pub(crate) param: TokenStream,
    /// The runtime's `WalkKind` variant for the type (`Plain` or `Local`), or `None`
    /// for the default (a message without fields).
    pub(crate) kind: Option<TokenStream>,
}

/// Consecutive members of one oneof, as `match` arms of the walk.
struct Run {
    index: usize,
    ident: Ident,
    arms: Vec<Arm>,
}

/// One oneof member: its pattern and its pass call.
struct Arm {
    pat: TokenStream,
    call: TokenStream,
}

/// Emit the pending oneof run, if any, as one term of the walk's sum.
fn flush(
    run: &mut Option<Run>,
    terms: &mut Vec<TokenStream>,
    first_is_match: &mut bool,
    bb: &TokenStream,
) {
    let Some(Run { ident, arms, .. }) = run.take() else {
        return;
    };
    if terms.is_empty() {
        *first_is_match = true;
    }
    let pats = arms.iter().map(|a| &a.pat);
    let calls = arms.iter().map(|a| &a.call);
    terms.push(quote! {
        match &self.#ident {
            #(#pats => #calls,)*
            _ => #bb::Default::default(),
        }
    });
}

/// Whether a generated type mentions the borrowed twin's lifetime `'a`.
pub(crate) fn borrows(ty: &TokenStream) -> bool {
    ty.to_string().contains("'a")
}

/// `field: local`, or the shorthand when they are the same.
fn init(field: &Ident, local: &Ident) -> TokenStream {
    if field == local {
        quote!(#field)
    } else {
        quote!(#field: #local)
    }
}

/// The codec and Rust type of a scalar.
pub(crate) fn scalar(
    s: ScalarType,
    p: &TokenStream,
    alloc: &TokenStream,
) -> (TokenStream, TokenStream) {
    let pre = if p.is_empty() { quote!() } else { quote!(#p::) };
    let (codec, ty) = match s {
        ScalarType::Double => (quote!(Double), quote!(f64)),
        ScalarType::Float => (quote!(Float), quote!(f32)),
        ScalarType::Int32 => (quote!(Int32), quote!(i32)),
        ScalarType::Int64 => (quote!(Int64), quote!(i64)),
        ScalarType::Uint32 => (quote!(UInt32), quote!(u32)),
        ScalarType::Uint64 => (quote!(UInt64), quote!(u64)),
        ScalarType::Sint32 => (quote!(SInt32), quote!(i32)),
        ScalarType::Sint64 => (quote!(SInt64), quote!(i64)),
        ScalarType::Fixed32 => (quote!(Fixed32), quote!(u32)),
        ScalarType::Fixed64 => (quote!(Fixed64), quote!(u64)),
        ScalarType::Sfixed32 => (quote!(SFixed32), quote!(i32)),
        ScalarType::Sfixed64 => (quote!(SFixed64), quote!(i64)),
        ScalarType::Bool => (quote!(Bool), quote!(bool)),
        ScalarType::String => (quote!(Str), quote!(#alloc::string::String)),
        ScalarType::Bytes => (quote!(Bytes), quote!(#alloc::vec::Vec<u8>)),
    };
    (quote!(#pre #codec), ty)
}

/// True for the scalar types written in a fixed number of bytes: a repeated field of one
/// is a borrowed twin's [`Shape::FixedRun`].
pub(crate) fn fixed_width(ty: &FieldType) -> bool {
    matches!(
        ty,
        FieldType::Scalar(
            ScalarType::Fixed32
                | ScalarType::Sfixed32
                | ScalarType::Fixed64
                | ScalarType::Sfixed64
                | ScalarType::Float
                | ScalarType::Double
        )
    )
}
