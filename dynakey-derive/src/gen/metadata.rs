//! The macro an entity derive defines beside the entity: `macro_rules!`
//! of the entity's name (in the macro namespace, so it clashes with no
//! type) that hands the entity's metadata, as tokens, to the table check.
//!
//! `#[derive(DynamoTable)]` and `#[derive(DynamoUnion)]` cannot see other
//! types' attributes, so they call each listed entity's macro in turn
//! (`Member! { .. }`); each appends its metadata and passes everything to
//! the hidden `table_step!`, which calls the next entity's macro, and after
//! the last one checks the entities against each other at expansion time,
//! with spans (DYNA301–307, and the drift checks DYNA500–507). The macro
//! is imported beside the entity with the entity's visibility, and a `pub`
//! entity's macro is also `#[macro_export]`ed, under a name made unique in
//! the crate (see [`macro_def`]).

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use crate::model::{Entity, KeyKind, KeyModel};

/// `"text"` as one word of the metadata (quoted, `"` and `\` escaped, as
/// the schema snapshot writes words).
fn word(out: &mut String, text: &str) {
    out.push_str(" \"");
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
}

/// The DynamoDB type of a native key attribute as far as the field's type
/// tells (`?` for types the derive cannot classify, such as unit enums:
/// the table check compares only what both sides know).
pub fn key_class(f: &crate::model::Field) -> &'static str {
    use crate::types::TypeKind;
    match f.kind {
        TypeKind::String | TypeKind::Uuid | TypeKind::Date | TypeKind::DateTime => "S",
        TypeKind::Int | TypeKind::Float | TypeKind::Decimal => "N",
        _ if crate::types::is_blob(&f.inner) => "B",
        _ => "?",
    }
}

/// The entity's metadata, as `table_step!` reads it (see
/// `tablecheck::meta`): the entity's name, and its facts as one string
/// literal of lines of words (one token, whatever the entity's size).
pub fn tokens(e: &Entity) -> TokenStream {
    let ident = &e.ident;
    if e.stub {
        return quote!({ #ident failed });
    }
    let mut t = String::from("entity");
    word(&mut t, &e.discriminator);
    word(&mut t, &e.disc_attr);
    // `key` starts a line of its own for the table's keys, and follows
    // its index on the index's line.
    let key = |t: &mut String, k: &KeyModel, sep: &str| {
        t.push_str(sep);
        t.push_str("key");
        word(t, &k.attr);
        word(t, &k.tpl.text);
    };
    key(&mut t, &e.pk, "\n");
    if let Some(sk) = &e.sk {
        key(&mut t, sk, "\n");
    }
    for ix in &e.indexes {
        t.push_str(if ix.kind == KeyKind::Local {
            "\nindex local"
        } else {
            "\nindex global"
        });
        word(&mut t, &ix.name);
        key(&mut t, &ix.pk, " ");
        if let Some(sk) = &ix.sk {
            key(&mut t, sk, " ");
        }
    }
    for n in &e.natives {
        t.push_str("\nnative");
        word(&mut t, &n.name);
        for (which, fields) in [("pk", &n.pk), ("sk", &n.sk)] {
            t.push(' ');
            t.push_str(which);
            for &i in fields.iter() {
                let f = &e.fields[i];
                word(&mut t, &f.name.text);
                word(&mut t, &f.attr);
                word(&mut t, key_class(f));
            }
        }
    }
    for v in &e.vectors {
        t.push_str("\nvector");
        word(&mut t, &v.name);
        word(&mut t, &e.fields[v.vector].attr);
        word(&mut t, &v.dimensions.to_string());
        word(&mut t, crate::model::vectors::api_distance(v.distance));
        let schema = v.scope.iter().map(|&i| ("scope", i));
        for (kind, i) in schema.chain(v.filters.iter().map(|&i| ("filter", i))) {
            t.push(' ');
            t.push_str(kind);
            word(&mut t, &e.fields[i].attr);
            word(&mut t, key_class(&e.fields[i]));
        }
    }
    for (_, f) in e.struct_fields().filter(|(_, f)| !f.skip()) {
        t.push_str("\nfield");
        word(&mut t, &f.name.text);
        word(&mut t, &f.attr);
        word(&mut t, &f.ty_text);
        let optional = f.may_be_absent() || crate::types::is_set(&f.inner);
        t.push_str(if optional { " optional" } else { " required" });
        t.push_str(if f.default.is_some() {
            " default"
        } else {
            " nodefault"
        });
        word(&mut t, f.form_word());
    }
    quote!({ #ident #t })
}

/// `macro_rules!` under a name of its own and a `use` of it as the
/// entity's name, with the entity's visibility (imported under another
/// name, it binds in the macro namespace only, beside the struct). A
/// `pub` entity's macro is `#[macro_export]`ed, so a table in another
/// crate finds it through the same path as the struct (`use
/// models::Order` imports both); its exported name is made unique in the
/// crate from the entity's place and keys.
pub fn macro_def(e: &Entity, krate: &TokenStream) -> TokenStream {
    let ident = &e.ident;
    let vis = &e.vis;
    let exported = matches!(vis, syn::Visibility::Public(_));
    let hidden = if exported {
        format_ident!("__dynakey_{}_{:016x}", ident, place_hash(e))
    } else {
        format_ident!("__dynakey_{}", ident)
    };
    let meta = tokens(e);
    let step = quote!(#krate::__private::table_step);
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
    // Outside the compiler (the expansion snapshots' unit test) a span
    // has no place: the hash is then of what the entity is only.
    let place = proc_macro::is_available().then(|| {
        let span = e.ident.span().unwrap();
        format!("{:?}:{}:{}", span.local_file(), span.line(), span.column())
    });
    let mut text = format!("{}:{}", place.unwrap_or_default(), e.discriminator);
    for k in e.all_keys() {
        text.push_str(&k.tpl.text);
    }
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}
