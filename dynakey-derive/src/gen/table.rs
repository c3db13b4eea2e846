//! `#[derive(DynamoTable)]`: the table's entity list and schema functions,
//! and the start of the chain through its entities' metadata macros that
//! checks them against each other and against the schema snapshot at
//! expansion (see `gen::metadata` and `tablecheck`).

use proc_macro2::TokenStream;
use quote::quote;

use super::private_path;
use crate::model::Table;

/// The first call of the chain through `entities` (`First! { @kind {facts}
/// [rest] }`), or nothing for an empty list.
pub fn chain(kind: &str, facts: TokenStream, entities: &[syn::Path]) -> TokenStream {
    let Some((first, rest)) = entities.split_first() else {
        return TokenStream::new();
    };
    let kind = proc_macro2::Ident::new(kind, proc_macro2::Span::call_site());
    quote!(#first! { @#kind { #facts } [#(#rest),*] })
}

pub fn expand(t: &Table, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    let ident = &t.ident;
    let name = ident.to_string();
    let entities = &t.entities;
    let metas = entities.iter().map(|e| quote!(<#e as #p::Entity>::META));
    let doc =
        format!("The entities of table `{ident}`, checked against each other at compile time.");
    let path = &t.schema_path;
    let mut facts = quote!(name(#ident) krate(#krate) entities(#(#entities),*));
    if std::path::Path::new(path).exists() {
        facts.extend(quote!(schema(#path)));
    }
    if let Some(m) = &t.migrations {
        facts.extend(quote!(migrations(#m)));
    }
    for (a, b) in &t.overlaps {
        facts.extend(quote!(overlap(#a, #b)));
    }
    let chain = chain("table", facts, entities);
    let stream = match t.stream {
        Some(v) => {
            let v = proc_macro2::Ident::new(v, proc_macro2::Span::call_site());
            quote!(.stream(#krate::changes::StreamView::#v))
        }
        None => TokenStream::new(),
    };
    let options_doc = format!(
        "What the code of table `{ident}` needs of the table beyond its entities: the stream it consumes (`#[dynamo(stream = ..)]`). Add the production settings to it; `create_table_with`, `verify_table_with` and the exports take it."
    );
    quote! {
        #[automatically_derived]
        impl #ident {
            #[doc = #doc]
            pub const ENTITIES: &'static [&'static #p::EntityMeta] = &[#(#metas),*];

            /// Where the table's schema snapshot is kept.
            pub const SCHEMA_PATH: &'static str = #path;

            /// The table's schema as the code says it now, in the snapshot's
            /// format.
            pub fn schema() -> #p::String {
                #p::schema::render(#name, Self::ENTITIES)
            }

            /// Compares the committed snapshot with the code (`Err` says how
            /// they differ, or that there is none yet); with
            /// `DYNAKEY_SCHEMA=overwrite` in the environment, writes it
            /// instead. Call it from a test so CI flags a stale snapshot.
            pub fn check_schema() -> #p::Result<(), #p::String> {
                #p::schema::check_file(::std::path::Path::new(Self::SCHEMA_PATH), &Self::schema())
            }

            #[doc = #options_doc]
            pub fn options() -> #krate::table::TableOptions {
                <#krate::table::TableOptions as #p::Default>::default() #stream
            }
        }
        // The exports exist with the runtime's feature `export`, which
        // this expansion cannot see: the runtime keeps or drops them.
        #p::if_export! {
        #[automatically_derived]
        impl #ident {
            /// The CloudFormation template of the table, named `name`,
            /// with `options` (start from `Self::options()`). Feature `export`.
            pub fn cloudformation(
                name: &str,
                options: &#krate::table::TableOptions,
            ) -> #p::Result<#krate::table::export::CloudFormation, #p::Error> {
                #krate::table::export::cloudformation(name, Self::ENTITIES, options)
            }

            /// The Terraform (`.tf.json`) document of the table, named
            /// `name`, with `options` (start from `Self::options()`).
            /// Feature `export`.
            pub fn terraform(
                name: &str,
                options: &#krate::table::TableOptions,
            ) -> #p::Result<#krate::table::export::Terraform, #p::Error> {
                #krate::table::export::terraform(name, Self::ENTITIES, options)
            }
        }
        }
        #chain
    }
}

/// Emitted beside the errors when the derive fails.
pub fn fallback(input: &syn::DeriveInput, krate: &TokenStream) -> TokenStream {
    let p = private_path(krate);
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    quote! {
        #[automatically_derived]
        impl #ident {
            #[doc(hidden)]
            pub const ENTITIES: &'static [&'static #p::EntityMeta] = &[];
            #[doc(hidden)]
            pub const SCHEMA_PATH: &'static str = "";
            #[doc(hidden)]
            pub fn schema() -> #p::String {
                #p::stub()
            }
            #[doc(hidden)]
            pub fn check_schema() -> #p::Result<(), #p::String> {
                #p::stub()
            }
            #[doc(hidden)]
            pub fn options() -> #krate::table::TableOptions {
                #p::stub()
            }
        }
        #p::if_export! {
        #[automatically_derived]
        impl #ident {
            #[doc(hidden)]
            pub fn cloudformation(
                _: &str,
                _: &#krate::table::TableOptions,
            ) -> #p::Result<#krate::table::export::CloudFormation, #p::Error> {
                #p::stub()
            }
            #[doc(hidden)]
            pub fn terraform(
                _: &str,
                _: &#krate::table::TableOptions,
            ) -> #p::Result<#krate::table::export::Terraform, #p::Error> {
                #p::stub()
            }
        }
        }
    }
}
