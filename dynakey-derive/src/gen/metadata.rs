//! The macro an entity derive defines beside the entity: `macro_rules!`
//! of the entity's name (in the macro namespace, so it clashes with no
//! type) that hands the entity's metadata, as tokens, to the table check.
//!
//! `#[derive(DynamoTable)]` and `#[derive(DynamoUnion)]` cannot see other
//! types' attributes, so they call each listed entity's macro in turn
//! (`Member! { .. }`); each appends its metadata and passes everything to
//! the hidden `table_step!`, which calls the next entity's macro, and after
//! the last one checks the entities against each other at expansion time,
//! with spans (DYNA301–305, and the drift checks DYNA500–506). The macro is
//! `pub(crate)`: a table lists entities of its own crate.
//!
//! The metadata's literals carry the spans of the entity's attributes, so
//! an error about a template points at the template.

use proc_macro2::{Literal, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use crate::model::{Entity, KeyKind, KeyModel, Projection};

/// `key "attr" "template"`, the template with its literal's span.
fn key(k: &KeyModel) -> TokenStream {
    let attr = &k.attr;
    let mut tpl = Literal::string(&k.tpl.text);
    tpl.set_span(k.tpl.span);
    quote!(key #attr #tpl)
}

/// The entity's metadata, as `table_step!` reads it (see `tablecheck::meta`).
pub fn tokens(e: &Entity) -> TokenStream {
    let ident = &e.ident;
    if e.stub {
        return quote!({ #ident failed });
    }
    let (disc, disc_attr) = (&e.discriminator, &e.disc_attr);
    let pk = key(&e.pk);
    let sk = e.sk.as_ref().map(|k| {
        let k = key(k);
        quote!(#k;)
    });
    let indexes = e.indexes.iter().map(|ix| {
        let kind = match ix.kind {
            KeyKind::Local => quote!(local),
            _ => quote!(global),
        };
        let mut name = Literal::string(&ix.name);
        name.set_span(ix.name_span);
        let sparse = if ix.sparse {
            quote!(sparse)
        } else {
            quote!(dense)
        };
        let projection = match &ix.projection {
            Projection::All => quote!(all),
            Projection::KeysOnly => quote!(keys_only),
            Projection::Include(fs) => {
                let attrs = fs.iter().map(|&i| &e.fields[i].attr);
                quote!(include(#(#attrs)*))
            }
        };
        let pk = key(&ix.pk);
        let sk = ix.sk.as_ref().map(key);
        quote!(index #kind #name #sparse #projection #pk #sk;)
    });
    let fields = e.struct_fields().filter(|(_, f)| !f.skip()).map(|(_, f)| {
        let (name, attr, ty) = (&f.name.text, &f.attr, f.ty_text());
        let optional = f.may_be_absent() || crate::types::is_set(&f.inner);
        let optional = if optional {
            quote!(optional)
        } else {
            quote!(required)
        };
        let default = if f.default.is_some() {
            quote!(default)
        } else {
            quote!(nodefault)
        };
        quote_spanned!(f.span=> field #name #attr #ty #optional #default;)
    });
    quote!({ #ident #disc #disc_attr #pk; #sk #(#indexes)* #(#fields)* })
}

/// `macro_rules!` under a name of its own and a `use` of it as the
/// entity's name, with the entity's visibility (imported under another
/// name, it binds in the macro namespace only, beside the struct). A
/// `pub` entity's macro is `#[macro_export]`ed, so a table in another
/// crate finds it through the same path as the struct (`use
/// models::Order` imports both); its exported name is made unique in the
/// crate from the entity's place and keys.
pub fn macro_def(e: &Entity) -> TokenStream {
    let ident = &e.ident;
    let vis = &e.vis;
    let exported = matches!(vis, syn::Visibility::Public(_));
    let hidden = if exported {
        format_ident!("__dynakey_{}_{:016x}", ident, place_hash(e))
    } else {
        format_ident!("__dynakey_{}", ident)
    };
    let meta = tokens(e);
    let step = {
        let krate = super::crate_path();
        quote!(#krate::__private::table_step)
    };
    let export = exported.then(|| quote!(#[macro_export]));
    quote! {
        #[doc(hidden)]
        #export
        #[allow(unused_macros, non_snake_case, non_local_definitions)]
        macro_rules! #hidden {
            ($($cb:tt)*) => { #step! { $($cb)* #meta } };
        }
        #[doc(hidden)]
        #[allow(unused_imports)]
        #vis use #hidden as #ident;
    }
}

/// A hash of where the entity is and what it is (FNV-1a: stable across
/// builds, unlike `DefaultHasher`'s seed).
fn place_hash(e: &Entity) -> u64 {
    let span = e.ident.span().unwrap();
    let mut text = format!(
        "{:?}:{}:{}:{}",
        span.local_file(),
        span.line(),
        span.column(),
        e.discriminator
    );
    for k in e.all_keys() {
        text.push_str(&k.tpl.text);
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
