//! `#[derive(DynamoTable)]`: the entities of one table, checked against each
//! other by the compiler (DYNA301–DYNA305), and the table they need.
//!
//! The macro cannot see other types' attributes, so each check is a `const`
//! evaluated over the entities' `META`: a failed check panics at compile
//! time with a message the runtime builds from both entities' templates.

use proc_macro2::TokenStream;
use quote::quote;

use super::private;
use crate::attr::snapshot::{SnapEntity, SnapKey};
use crate::model::Table;

/// `const _: () = ...` failing the build with the message of `check`, an
/// expression of the runtime's `ConstMessage` (empty when fine).
pub fn const_check(check: TokenStream) -> TokenStream {
    let p = private();
    quote! {
        const _: () = {
            const __C: #p::table_check::ConstMessage = #check;
            const __M: &str = __C.as_str();
            if !__M.is_empty() {
                ::core::panic!("{}", __M)
            }
        };
    }
}

pub fn expand(t: &Table) -> TokenStream {
    let p = private();
    let ident = &t.ident;
    let name = ident.to_string();
    let meta = |t: &syn::Path| quote!(<#t as #p::Entity>::META);
    let mut checks = Vec::new();
    for (i, a) in t.entities.iter().enumerate() {
        for b in &t.entities[i + 1..] {
            let (ma, mb) = (meta(a), meta(b));
            // Overlaps the table allows, in either order.
            let allowed =
                |x: &syn::Path, y: &syn::Path| t.overlaps.iter().any(|(p, q)| p == x && q == y);
            let (ab, ba) = (
                allowed(a, b) || allowed(b, a),
                allowed(b, a) || allowed(a, b),
            );
            checks.push(const_check(
                quote!(#p::table_check::table_pair(#name, #ma, #mb, #ab, #ba)),
            ));
        }
    }
    let drift = drift(t);
    let metas = t.entities.iter().map(meta);
    let doc =
        format!("The entities of table `{ident}`, checked against each other at compile time.");
    let path = &t.schema_path;
    quote! {
        #(#checks)*
        #drift
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
            /// they differ); with `DYNAKEY_SCHEMA=overwrite` in the
            /// environment, writes it instead. Call it from a test so CI
            /// flags a stale snapshot.
            pub fn check_schema() -> #p::Result<(), #p::String> {
                #p::schema::check_file(::std::path::Path::new(Self::SCHEMA_PATH), &Self::schema())
            }
        }
    }
}

fn snap_key(k: &SnapKey) -> TokenStream {
    let p = private();
    let (attr, tpl) = (&k.attr, &k.template);
    quote!(#p::schema::SnapKey { attr: #attr, template: #tpl })
}

fn opt_key(k: Option<&SnapKey>) -> TokenStream {
    let p = private();
    match k {
        Some(k) => {
            let k = snap_key(k);
            quote!(#p::Some(#k))
        }
        None => quote!(#p::None),
    }
}

/// The snapshot's entity as a const value.
fn snap_entity(e: &SnapEntity) -> TokenStream {
    let p = private();
    let (ty, disc, attr) = (&e.type_name, &e.discriminator, &e.discriminator_attr);
    let pk = e.pk.as_ref().map(snap_key).unwrap_or_default();
    let sk = opt_key(e.sk.as_ref());
    let indexes = e.indexes.iter().map(|ix| {
        let (name, global, sparse) = (&ix.name, ix.global, ix.sparse);
        // A local index's partition key is the table's.
        let pk = snap_key(ix.pk.as_ref().or(e.pk.as_ref()).expect("checked when parsed"));
        let sk = opt_key(ix.sk.as_ref());
        quote!(#p::schema::SnapIndex { name: #name, global: #global, sparse: #sparse, pk: #pk, sk: #sk })
    });
    let fields = e.fields.iter().map(|f| {
        let (name, attr, ty, optional, default) = (&f.name, &f.attr, &f.ty, f.optional, f.default);
        quote!(#p::schema::SnapField { name: #name, attr: #attr, ty: #ty, optional: #optional, default: #default })
    });
    quote! {
        &#p::schema::SnapEntity {
            type_name: #ty,
            discriminator: #disc,
            discriminator_attr: #attr,
            pk: #pk,
            sk: #sk,
            indexes: &[#(#indexes),*],
            fields: &[#(#fields),*],
        }
    }
}

/// DYNA501–DYNA506 against the committed snapshot, and a dependency on
/// the file so a change to it rebuilds.
fn drift(t: &Table) -> TokenStream {
    let p = private();
    let Some((path, entities)) = &t.snapshot else {
        return TokenStream::new();
    };
    let name = t.ident.to_string();
    let migrations = match &t.migrations {
        Some(m) => quote!(#m),
        None => quote!(&[]),
    };
    let was = entities.iter().map(|snap| {
        let e = snap_entity(snap);
        quote!(*#e)
    });
    let now = t.entities.iter().map(|e| quote!(<#e as #p::Entity>::META));
    let check = const_check(
        quote!(#p::schema::drift::table(#name, &[#(#now),*], &[#(#was),*], #migrations)),
    );
    quote! {
        const _: &[u8] = ::core::include_bytes!(#path);
        #check
    }
}

/// Emitted beside the errors when the derive fails.
pub fn fallback(input: &syn::DeriveInput) -> TokenStream {
    let p = private();
    let ident = &input.ident;
    if !input.generics.params.is_empty() {
        return TokenStream::new();
    }
    quote! {
        impl #ident {
            #[doc(hidden)]
            pub const ENTITIES: &'static [&'static #p::EntityMeta] = &[];
        }
    }
}
