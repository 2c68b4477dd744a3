//! Enums: a `#[repr(i32)]` Rust enum per schema enum.
//!
//! Fields hold the number as `i32` (see the crate docs for why); the Rust enum is the
//! typed view: `TryFrom<i32>`, `From<E> for i32`, and the value names.

use bijoubuf_schema::EnumDef;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use crate::Error;
use crate::emit::{Emitter, attrs_for, doc_attrs};
use crate::names::{self, Scope};

/// The variant names of an enum's values (aliases included, in declaration order):
/// UpperCamelCase, with the enum's name prefix stripped when every value has it and
/// the stripped names stay distinct and valid.
pub(crate) fn variant_names(e: &EnumDef) -> Vec<String> {
    let prefix = format!(
        "{}_",
        heck::ToShoutySnakeCase::to_shouty_snake_case(e.name.as_str())
    );
    let stripped: Option<Vec<&str>> = e
        .values
        .iter()
        .map(|v| {
            v.name
                .strip_prefix(&prefix)
                .filter(|rest| rest.starts_with(|c: char| c.is_ascii_alphabetic()))
        })
        .collect();
    let raw: Vec<&str> = match stripped {
        Some(s) => s,
        None => e.values.iter().map(|v| v.name.as_str()).collect(),
    };
    let mut scope = Scope::default();
    raw.iter().map(|n| scope.claim(&names::camel(n))).collect()
}

impl Emitter<'_> {
    pub(crate) fn enumeration(&self, e: &EnumDef) -> Result<TokenStream, Error> {
        let Some(loc) = self.ctx.loc(&e.full_name) else {
            return Ok(TokenStream::new());
        };
        if loc.extern_path.is_some() {
            return Ok(TokenStream::new());
        }
        let name = names::ident(&loc.name);
        let docs = doc_attrs(
            &e.comments,
            self.comments_on(&e.full_name),
            &format!("The `{}` enum.", e.full_name),
        );
        let mut attrs = attrs_for(&self.ctx.opts.type_attrs, &e.full_name)?;
        attrs.extend(attrs_for(&self.ctx.opts.enum_attrs, &e.full_name)?);
        let serde = self.ctx.opts.serde.matches(&e.full_name);
        let serde_derive =
            serde.then(|| quote!(#[derive(::serde::Serialize, ::serde::Deserialize)]));

        let variants = variant_names(e);
        let bb = self.hidden();
        let mut seen = Vec::new();
        let mut defs = Vec::new();
        let mut aliases = Vec::new();
        let mut from_arms = Vec::new();
        let mut name_arms = Vec::new();
        let mut parse_arms = Vec::new();
        for (v, vname) in e.values.iter().zip(&variants) {
            let id = names::ident(vname);
            let proto_name = &v.name;
            let num = Literal::i32_unsuffixed(v.number);
            let vdocs = doc_attrs(
                &v.comments,
                self.comments_on(&e.full_name),
                &format!("`{} = {}`.", v.name, v.number),
            );
            let deprecated = v.deprecated.then(|| quote!(#[deprecated]));
            if let Some((first, _)) = seen.iter().find(|(_, n)| *n == v.number) {
                // An alias (`allow_alias`): same number, so an associated constant.
                let first: &proc_macro2::Ident = first;
                aliases.push(quote! {
                    #vdocs
                    #deprecated
                    #[allow(non_upper_case_globals)] // spelled like the variant it aliases
                    pub const #id: Self = Self::#first;
                });
                parse_arms.push(quote!(#proto_name => #bb::Some(Self::#first)));
                continue;
            }
            let rename = serde.then(|| quote!(#[serde(rename = #proto_name)]));
            defs.push(quote! {
                #vdocs
                #deprecated
                #rename
                #id = #num
            });
            from_arms.push(quote!(#num => #bb::Ok(Self::#id)));
            name_arms.push(quote!(Self::#id => #proto_name));
            parse_arms.push(quote!(#proto_name => #bb::Some(Self::#id)));
            seen.push((id, v.number));
        }
        let default = &seen[0].0;
        let alias_impl = (!aliases.is_empty()).then(|| quote!(#(#aliases)*));
        // The enum's own impls name it and its variants; a user's code that does draws
        // the lint.
        let deprecated = e.deprecated.then(|| quote!(#[deprecated]));
        let allow = |names_deprecated: bool| names_deprecated.then(|| quote!(#[allow(deprecated)]));
        let allow_variants = allow(e.deprecated || e.values.iter().any(|v| v.deprecated));
        let allow_default = allow(e.deprecated || e.values[0].deprecated);
        let allow_type = allow(e.deprecated);
        Ok(quote! {
            #docs
            #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
            #serde_derive
            #deprecated
            #(#attrs)*
            #[repr(i32)]
            pub enum #name {
                #(#defs,)*
            }

            #allow_variants
            impl #name {
                #alias_impl

                /// The value's name as written in the schema.
                pub const fn as_str_name(self) -> &'static str {
                    match self {
                        #(#name_arms,)*
                    }
                }

                /// The value with this schema name (aliases included).
                pub fn from_str_name(name: &str) -> ::core::option::Option<Self> {
                    match name {
                        #(#parse_arms,)*
                        _ => #bb::None,
                    }
                }
            }

            #allow_default
            impl ::core::default::Default for #name {
                /// The first value declared.
                fn default() -> Self {
                    Self::#default
                }
            }

            #allow_type
            impl ::core::convert::From<#name> for i32 {
                fn from(value: #name) -> i32 {
                    value as i32
                }
            }

            #allow_variants
            impl ::core::convert::TryFrom<i32> for #name {
                /// A number the schema does not name comes back as the error.
                type Error = i32;

                fn try_from(number: i32) -> ::core::result::Result<Self, i32> {
                    match number {
                        #(#from_arms,)*
                        n => #bb::Err(n),
                    }
                }
            }
        })
    }
}
