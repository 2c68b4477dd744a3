//! Getters generated beside the fields: the typed view of enum fields and the proto2
//! `[default = …]` of optional scalar fields.

use bijoubuf_schema::{FieldType, MessageDef, ScalarType};
use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote};

use crate::Error;
use crate::emit::Emitter;
use crate::message::{Plain, Shape, TRAIT_METHODS, scalar};
use crate::names;

impl Emitter<'_> {
    /// Typed getters for enum fields (`Option<E>`: `None` for a number the schema does
    /// not name) and proto2 defaults of optional scalar fields.
    pub(crate) fn accessors(
        &self,
        m: &MessageDef,
        plains: &[Plain<'_>],
    ) -> Result<TokenStream, Error> {
        let bb = self.hidden();
        let mut out = Vec::new();
        // Enum getters take the field's own name; a default getter whose name is taken
        // by one of those (or by a `Message` method) is left out rather than clash.
        let enum_getters: Vec<String> = plains
            .iter()
            .filter(|p| {
                matches!(p.def.ty, FieldType::Enum(_))
                    && !matches!(p.shape, Shape::Repeated | Shape::Map { .. })
            })
            .map(|p| p.ident.to_string())
            .collect();
        for p in plains {
            let f = p.def;
            let getter = p.ident.to_string();
            if TRAIT_METHODS.contains(&getter.as_str()) {
                continue;
            }
            let ident = &p.ident;
            match (&f.ty, &p.shape) {
                (FieldType::Enum(e), Shape::Implicit | Shape::Required) => {
                    let path = self.path_to(e);
                    let doc = format!(
                        " Field `{}` as the enum; `None` for a number the schema does not name.",
                        f.name
                    );
                    out.push(quote! {
                        #[doc = #doc]
                        pub fn #ident(&self) -> ::core::option::Option<#path> {
                            #path::try_from(self.#ident).ok()
                        }
                    });
                }
                (FieldType::Enum(e), Shape::Optional) => {
                    let path = self.path_to(e);
                    let doc = format!(
                        " Field `{}` as the enum: the value, else the schema default; `None` for a number the schema does not name.",
                        f.name
                    );
                    let default = match &f.default {
                        Some(d) => {
                            let Some(en) = self.ctx.schema.enumeration(e) else {
                                continue;
                            };
                            let Some(idx) = en.values.iter().position(|v| &v.name == d) else {
                                continue;
                            };
                            let vname = names::ident(&crate::enums::variant_names(en)[idx]);
                            quote!(#path::#vname)
                        }
                        None => quote!(<#path as ::core::default::Default>::default()),
                    };
                    out.push(quote! {
                        #[doc = #doc]
                        pub fn #ident(&self) -> ::core::option::Option<#path> {
                            match self.#ident {
                                #bb::Some(n) => #path::try_from(n).ok(),
                                #bb::None => #bb::Some(#default),
                            }
                        }
                    });
                }
                (FieldType::Scalar(s), Shape::Optional) => {
                    let Some(d) = &f.default else { continue };
                    let Some(value) = default_literal(*s, d) else {
                        continue;
                    };
                    let getter_name =
                        format_ident!("{}_or_default", getter.trim_start_matches("r#"));
                    let taken = getter_name.to_string();
                    if enum_getters.contains(&taken) || TRAIT_METHODS.contains(&taken.as_str()) {
                        continue;
                    }
                    // Bytes defaults are C-escaped text already; strings are raw.
                    let shown = if *s == ScalarType::Bytes {
                        d.clone()
                    } else {
                        d.escape_debug().to_string()
                    };
                    let doc = format!(" Field `{}`, else its schema default `{shown}`.", f.name);
                    let (ret, body) = match s {
                        ScalarType::String => (
                            quote!(&str),
                            quote!(self.#ident.as_deref().unwrap_or(#value)),
                        ),
                        ScalarType::Bytes => (
                            quote!(&[u8]),
                            quote!(self.#ident.as_deref().unwrap_or(#value)),
                        ),
                        _ => {
                            let (_, t) = scalar(*s, &TokenStream::new(), &TokenStream::new());
                            (t, quote!(self.#ident.unwrap_or(#value)))
                        }
                    };
                    out.push(quote! {
                        #[doc = #doc]
                        pub fn #getter_name(&self) -> #ret {
                            #body
                        }
                    });
                }
                _ => {}
            }
        }
        if out.is_empty() {
            return Ok(TokenStream::new());
        }
        let loc = self
            .ctx
            .loc(&m.full_name)
            .map(|l| l.name.clone())
            .unwrap_or_default();
        let name = names::ident(&loc);
        Ok(quote! {
            impl #name {
                #(#out)*
            }
        })
    }
}

/// A proto2 `[default = …]` (protoc's text form) as a Rust literal of the field's type.
fn default_literal(s: ScalarType, text: &str) -> Option<TokenStream> {
    Some(match s {
        ScalarType::Double | ScalarType::Float => {
            let ty = if s == ScalarType::Double {
                quote!(f64)
            } else {
                quote!(f32)
            };
            match text {
                "inf" => quote!(#ty::INFINITY),
                "-inf" => quote!(#ty::NEG_INFINITY),
                "nan" => quote!(#ty::NAN),
                // Written as bits: exact, and no lint mistakes `3.14` for an
                // approximation of π (the decimal is in the getter's doc).
                _ => {
                    let v: f64 = text.parse().ok()?;
                    if s == ScalarType::Double {
                        let bits: Literal = format!("0x{:016X}", v.to_bits()).parse().ok()?;
                        quote!(f64::from_bits(#bits))
                    } else {
                        let bits: Literal =
                            format!("0x{:08X}", (v as f32).to_bits()).parse().ok()?;
                        quote!(f32::from_bits(#bits))
                    }
                }
            }
        }
        ScalarType::Int32 | ScalarType::Sint32 | ScalarType::Sfixed32 => {
            let l = Literal::i32_suffixed(text.parse().ok()?);
            quote!(#l)
        }
        ScalarType::Int64 | ScalarType::Sint64 | ScalarType::Sfixed64 => {
            let l = Literal::i64_suffixed(text.parse().ok()?);
            quote!(#l)
        }
        ScalarType::Uint32 | ScalarType::Fixed32 => {
            let l = Literal::u32_suffixed(text.parse().ok()?);
            quote!(#l)
        }
        ScalarType::Uint64 | ScalarType::Fixed64 => {
            let l = Literal::u64_suffixed(text.parse().ok()?);
            quote!(#l)
        }
        ScalarType::Bool => match text {
            "true" => quote!(true),
            "false" => quote!(false),
            _ => return None,
        },
        ScalarType::String => {
            let l = Literal::string(text);
            quote!(#l)
        }
        ScalarType::Bytes => {
            let l = Literal::byte_string(&bijoubuf_schema::c_unescape(text)?);
            quote!(#l)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_literals() {
        let s = |t, d| default_literal(t, d).map(|ts| ts.to_string());
        assert_eq!(s(ScalarType::Int64, "-7").as_deref(), Some("- 7i64"));
        assert_eq!(
            s(ScalarType::Double, "0.5").as_deref(),
            Some("f64 :: from_bits (0x3FE0000000000000)")
        );
        assert_eq!(
            s(ScalarType::Double, "inf").as_deref(),
            Some("f64 :: INFINITY")
        );
        assert_eq!(s(ScalarType::Float, "nan").as_deref(), Some("f32 :: NAN"));
        assert_eq!(s(ScalarType::Bool, "true").as_deref(), Some("true"));
        assert_eq!(s(ScalarType::Uint32, "-1"), None);
    }
}
