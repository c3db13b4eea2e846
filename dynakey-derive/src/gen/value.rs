//! `#[derive(DynamoValue)]`: nested structs as maps (M), unit enums as their
//! variant name (S) that can also be key parts.

use proc_macro2::TokenStream;
use quote::quote;
use syn::{Data, DeriveInput, Fields};

use super::codec::{decode_fields, encode_fields};
use super::keys::private;
use crate::attr;
use crate::check;
use crate::ctxt::Ctxt;

pub fn expand(cx: &Ctxt, input: &DeriveInput) -> Option<TokenStream> {
    let p = private();
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        cx.error(
            ident.span(),
            format!("DYNA109: DynamoValue does not support generic parameters on `{ident}`"),
        );
        return None;
    }
    match &input.data {
        Data::Enum(en) => {
            let mut names = Vec::new();
            let mut idents = Vec::new();
            for v in &en.variants {
                if !matches!(v.fields, Fields::Unit) {
                    cx.error(v.ident.span(), format!("DYNA109: variant `{}` has fields; DynamoValue stores unit enums by name\n  = help: store data-carrying enums with #[dynamo(serde)] on the field", v.ident));
                    continue;
                }
                let name = attr::variant(cx, &v.attrs).unwrap_or_else(|| v.ident.to_string());
                // Any other text is fine in a key: the template escapes what
                // sorts at or below its delimiter.
                if name.is_empty() || name.chars().any(|c| c < ' ' || c == '\u{10FFFF}') {
                    cx.error(
                        v.ident.span(),
                        "DYNA109: a variant's stored name must be non-empty text without control characters or U+10FFFF",
                    );
                }
                names.push(name);
                idents.push(v.ident.clone());
            }
            if cx.has_errors() {
                return None;
            }
            Some(quote! {
                impl #ident {
                    #[doc(hidden)]
                    pub const __NAMES: &'static [&'static str] = &[#(#names),*];
                    /// The name this variant is stored under.
                    pub fn dynamo_name(&self) -> &'static str {
                        match self { #(Self::#idents => #names,)* }
                    }
                }
                impl #p::Attr for #ident {
                    fn to_attr(&self) -> ::core::option::Option<#p::AttributeValue> {
                        ::core::option::Option::Some(#p::AttributeValue::S(#p::String::from(self.dynamo_name())))
                    }
                    fn from_attr(__v: &#p::AttributeValue, __path: &#p::AttrPath<'_>) -> ::core::result::Result<Self, #p::DecodeError> {
                        match __v {
                            #p::AttributeValue::S(__s) => match __s.as_str() {
                                #(#names => ::core::result::Result::Ok(Self::#idents),)*
                                _ => ::core::result::Result::Err(#p::unit_enum_mismatch(__v, __path, Self::__NAMES)),
                            },
                            _ => ::core::result::Result::Err(#p::unit_enum_mismatch(__v, __path, Self::__NAMES)),
                        }
                    }
                }
                impl #p::KeyText for #ident {
                    fn write_text(&self, __out: &mut #p::String) -> ::core::result::Result<(), #p::KeyPartError> {
                        __out.push_str(self.dynamo_name());
                        ::core::result::Result::Ok(())
                    }
                    fn parse_text(__s: &str) -> ::core::result::Result<Self, #p::KeyPartError> {
                        match __s {
                            #(#names => ::core::result::Result::Ok(Self::#idents),)*
                            _ => ::core::result::Result::Err(#p::unknown_variant(__s, Self::__NAMES)),
                        }
                    }
                }
            })
        }
        Data::Struct(_) => {
            let named = check::named_fields(cx, input, "DynamoValue")?;
            let fields = check::fields(cx, named);
            for f in fields.iter().filter(|f| f.serde || f.ttl) {
                cx.error(f.span, format!("DYNA112: field `{}`: #[dynamo(serde)] and #[dynamo(ttl)] are for entity fields, not nested values", f.ident));
            }
            if cx.has_errors() {
                return None;
            }
            let encode = encode_fields(&fields, false);
            let decode = decode_fields(&fields, false);
            let n = fields.len();
            Some(quote! {
                impl #p::Attr for #ident {
                    fn to_attr(&self) -> ::core::option::Option<#p::AttributeValue> {
                        let mut __item: #p::Item = #p::HashMap::with_capacity(#n);
                        #encode
                        ::core::option::Option::Some(#p::AttributeValue::M(__item))
                    }
                    fn from_attr(__v: &#p::AttributeValue, __path: &#p::AttrPath<'_>) -> ::core::result::Result<Self, #p::DecodeError> {
                        let __path = *__path;
                        let __item = match __v {
                            #p::AttributeValue::M(__m) => __m,
                            __other => return ::core::result::Result::Err(#p::DecodeError::mismatch(&__path, "M (map)", __other)),
                        };
                        ::core::result::Result::Ok(Self { #decode })
                    }
                }
            })
        }
        Data::Union(_) => {
            cx.error(ident.span(), "DYNA109: DynamoValue does not support unions");
            None
        }
    }
}
