//! `#[derive(DynamoValue)]`: nested structs as maps (M), unit enums as their
//! stored name (S) that can also be key parts.

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};
use syn::spanned::Spanned;

use super::codec::construct;
use super::private_path;
use crate::model::Value;
use crate::unraw::local;

pub fn expand(v: &Value, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    match v {
        Value::Enum { ident, variants } => {
            let idents: Vec<_> = variants.iter().map(|(i, _)| i).collect();
            let names: Vec<_> = variants.iter().map(|(_, n)| n).collect();
            quote! {
                #[automatically_derived]
                impl #ident {
                    #[doc(hidden)]
                    pub const __NAMES: &'static [&'static str] = &[#(#names),*];
                    /// The name this variant is stored under.
                    pub fn dynamo_name(&self) -> &'static str {
                        match self { #(Self::#idents => #names,)* }
                    }
                }
                #[automatically_derived]
                impl #p::Attr for #ident {
                    fn to_attr(&self) -> #p::Option<#p::AttributeValue> {
                        #p::Some(#p::AttributeValue::S(#p::String::from(self.dynamo_name())))
                    }
                    fn __shape(__shape: &mut #p::Shape) {
                        #(__shape.value(#names);)*
                    }
                    fn from_attr(__v: &#p::AttributeValue, __path: &#p::AttrPath<'_>) -> #p::Result<Self, #p::DecodeError> {
                        match __v {
                            #p::AttributeValue::S(__s) => match __s.as_str() {
                                #(#names => #p::Ok(Self::#idents),)*
                                _ => #p::Err(#p::unit_enum_mismatch(__v, __path, Self::__NAMES)),
                            },
                            _ => #p::Err(#p::unit_enum_mismatch(__v, __path, Self::__NAMES)),
                        }
                    }
                }
                #[automatically_derived]
                #[diagnostic::do_not_recommend]
                impl #p::NativeKeyAttr for #ident {
                    const TYPE: #p::KeyAttrType = #p::KeyAttrType::S;
                    fn key_value(&self) -> #p::Result<#p::AttributeValue, #p::KeyPartError> {
                        #p::native_str(self.dynamo_name())
                    }
                }
                #[automatically_derived]
                #[diagnostic::do_not_recommend]
                impl #p::NativePrefix for #ident {
                    type Prefix = str;
                    fn prefix_value(__prefix: &str) -> #p::Option<#p::AttributeValue> {
                        #p::native_str_prefix(__prefix)
                    }
                }
                #[automatically_derived]
                impl #p::KeyText for #ident {
                    fn write_text(&self, __out: &mut #p::String) -> #p::Result<(), #p::KeyPartError> {
                        __out.push_str(self.dynamo_name());
                        #p::Ok(())
                    }
                    fn parse_text(__s: &str) -> #p::Result<Self, #p::KeyPartError> {
                        match __s {
                            #(#names => #p::Ok(Self::#idents),)*
                            _ => #p::Err(#p::unknown_variant(__s, Self::__NAMES)),
                        }
                    }
                }
            }
        }
        Value::Struct { ident, fields } => {
            let item = local("item");
            let puts = fields.iter().filter(|f| f.stored()).map(|f| {
                let (id, ty, attr) = (&f.name.ident, &f.ty, &f.attr);
                let put = if f.omit_empty() {
                    quote_spanned!(ty.span()=> #p::put_attr_omit_empty::<#ty>)
                } else {
                    quote_spanned!(ty.span()=> #p::put_attr::<#ty>)
                };
                quote!(#put(&mut #item, #attr, &self.#id);)
            });
            let members = fields.iter().filter(|f| f.stored()).map(|f| {
                let (ty, name, attr, text) = (&f.ty, &f.name.text, &f.attr, f.ty_text.clone());
                let optional = f.may_be_absent();
                quote_spanned!(ty.span()=> __shape.member::<#ty>(#name, #attr, #text, #optional);)
            });
            // The first stored field with no readable stored form, by path.
            let checks = fields.iter().filter(|f| f.stored()).map(|f| {
                let (id, ty, attr) = (&f.name.ident, &f.ty, &f.attr);
                let check = quote_spanned!(ty.span()=> <#ty as #p::Attr>::unwritable);
                quote!(.or_else(|| #check(&self.#id).map(|__u| __u.under(::core::format_args!(".{}", #attr)))))
            });
            let n = fields.len();
            let r = local("r");
            let value = construct(fields, &r);
            quote! {
                #[automatically_derived]
                impl #p::Attr for #ident {
                    fn to_attr(&self) -> #p::Option<#p::AttributeValue> {
                        let mut #item: #p::Item = #p::HashMap::with_capacity(#n);
                        #(#puts)*
                        #p::Some(#p::AttributeValue::M(#item))
                    }
                    fn unwritable(&self) -> #p::Option<#p::Unwritable> {
                        #p::None #(#checks)*
                    }
                    fn from_attr(__v: &#p::AttributeValue, __path: &#p::AttrPath<'_>) -> #p::Result<Self, #p::DecodeError> {
                        // A map, refused at the deepest level DynamoDB stores
                        // before its fields are read (a recursive type would
                        // otherwise recurse as deep as the value goes).
                        let #r = #p::ItemReader::map(__v, __path)?;
                        #p::Ok(#value)
                    }
                    fn __shape(__shape: &mut #p::Shape) {
                        #(#members)*
                    }
                }
            }
        }
    }
}

/// Emitted beside the errors when the derive fails: the impls other code
/// relies on, so a mistake here is one error, not one per use.
pub fn fallback(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    let key_text = matches!(input.data, syn::Data::Enum(_)).then(|| {
        quote! {
            #[automatically_derived]
            impl #p::KeyText for #ident {
                fn write_text(&self, _: &mut #p::String) -> #p::Result<(), #p::KeyPartError> {
                    ::core::panic!("the DynamoValue derive failed")
                }
                fn parse_text(_: &str) -> #p::Result<Self, #p::KeyPartError> {
                    ::core::panic!("the DynamoValue derive failed")
                }
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #p::Attr for #ident {
            fn to_attr(&self) -> #p::Option<#p::AttributeValue> {
                ::core::panic!("the DynamoValue derive failed")
            }
            fn from_attr(_: &#p::AttributeValue, _: &#p::AttrPath<'_>) -> #p::Result<Self, #p::DecodeError> {
                ::core::panic!("the DynamoValue derive failed")
            }
        }
        #key_text
    }
}
