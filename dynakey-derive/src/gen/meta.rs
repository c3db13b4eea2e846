//! `const META`: everything the runtime knows of an entity (keys, indexes,
//! fields, the data rules' attributes), built by the runtime's `const fn`s
//! from the templates' descriptions.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};

use super::keys::tpl_name;
use crate::model::{Entity, IndexModel, KeyKind, KeyModel, NativeIndex, Projection, Stamp};

fn key_meta(e: &Entity, k: &KeyModel) -> TokenStream {
    let tpl = tpl_name(k);
    let names = k
        .distinct_fields()
        .into_iter()
        .map(|i| &e.fields[i].name.text);
    quote!(__dk_KeyMeta::__of(#tpl, &[#(#names),*]))
}

pub fn projection(e: &Entity, projection: &Projection) -> TokenStream {
    match projection {
        Projection::All => quote!(__dk_IndexProjection::All),
        Projection::KeysOnly => quote!(__dk_IndexProjection::KeysOnly),
        Projection::Include(fs) => {
            let attrs = fs.iter().map(|&i| &e.fields[i].attr);
            quote!(__dk_IndexProjection::Include(&[#(#attrs),*]))
        }
    }
}

fn index_meta(e: &Entity, ix: &IndexModel) -> TokenStream {
    let kind = match ix.kind {
        KeyKind::Local => quote!(__dk_IndexKind::Local),
        _ => quote!(__dk_IndexKind::Global),
    };
    let projection = projection(e, &ix.projection);
    let pk = key_meta(e, &ix.pk);
    let sk = match &ix.sk {
        Some(k) => {
            let m = key_meta(e, k);
            quote!(__dk_Some(#m))
        }
        None => quote!(__dk_None),
    };
    let sparse = ix.sparse;
    quote!(__dk_IndexMeta::__new(#kind, #pk, #sk, #sparse, #projection))
}

/// A native index: its attribute lists are the consts `gen::native`
/// writes.
fn native_meta(e: &Entity, n: &NativeIndex) -> TokenStream {
    let (pk, sk) = (
        super::native::attrs_name(n, false),
        super::native::attrs_name(n, true),
    );
    let name = &n.name;
    let sparse = n.sparse(&e.fields);
    let projection = projection(e, &n.projection);
    quote!(__dk_IndexMeta::__native(#name, #pk, #sk, #sparse, #projection))
}

/// `const META: &'static EntityMeta = ..;`
pub fn meta(e: &Entity) -> TokenStream {
    let type_name = e.ident.to_string();
    let (disc, disc_attr) = (&e.discriminator, &e.disc_attr);
    let pk = key_meta(e, &e.pk);
    let sk = match &e.sk {
        Some(k) => {
            let m = key_meta(e, k);
            quote!(__dk_Some(#m))
        }
        None => quote!(__dk_None),
    };
    let indexes = e
        .indexes
        .iter()
        .map(|ix| index_meta(e, ix))
        .chain(e.natives.iter().map(|n| native_meta(e, n)));
    let fields = e.struct_fields().filter(|(_, f)| !f.skip()).map(|(_, f)| {
        // May be absent from a stored item (a set reads as empty).
        let optional = f.may_be_absent() || crate::types::is_set(&f.inner);
        let (name, attr, ty, default) = (&f.name.text, &f.attr, &f.ty_text, f.default.is_some());
        // `FieldForm::Own`, `Ttl` or `Serde`.
        let own = f.form_word() == "own";
        let form = format_ident!("{}", crate::unraw::camel(f.form_word()));
        // What the snapshot records below the field's line: the names its
        // own type stores (its `Attr`), none for `ttl` and `serde`.
        let shaped = own && !crate::types::holds_no_names(&f.ty);
        let shape = if shaped {
            let fty = &f.ty;
            quote_spanned!(f.ty_span=> __dk_Shape::of::<#fty>)
        } else {
            quote!(__dk_Shape::none)
        };
        if *name == *attr && !optional && !default && own {
            if shaped {
                quote!(__dk_FieldMeta::__shaped(#name, #ty, #shape))
            } else {
                quote!(__dk_FieldMeta::__plain(#name, #ty))
            }
        } else {
            quote!(__dk_FieldMeta::__new(#name, #attr, #optional, #ty, #default, __dk_FieldForm::#form, #shape))
        }
    });
    let attr_of = |pred: &dyn Fn(&crate::model::Field) -> bool| {
        e.fields.iter().find(|f| pred(f)).map(|f| f.attr.clone())
    };
    let mut with = TokenStream::new();
    if let Some(a) = attr_of(&|f| f.ttl()) {
        with.extend(quote!(.__with_ttl(#a)));
    }
    if let Some(a) = attr_of(&|f| f.version()) {
        with.extend(quote!(.__with_version(#a)));
    }
    if let Some(a) = attr_of(&|f| f.stamp == Some(Stamp::Created)) {
        with.extend(quote!(.__with_created_at(#a)));
    }
    if let Some(a) = attr_of(&|f| f.stamp == Some(Stamp::Updated)) {
        with.extend(quote!(.__with_updated_at(#a)));
    }
    let unique: Vec<&String> = e
        .fields
        .iter()
        .filter(|f| f.unique)
        .map(|f| &f.attr)
        .collect();
    if !unique.is_empty() {
        with.extend(quote!(.__with_unique(&[#(#unique),*])));
    }
    // Each scoped unique attribute with its scope's attribute (the scope
    // names a field: DYNA123).
    let (scoped, scopes): (Vec<&String>, Vec<&String>) = e
        .fields
        .iter()
        .filter(|f| f.unique)
        .filter_map(|f| {
            let name = f.unique_scope.as_ref()?.get_ident()?.to_string();
            let scope = e.fields.iter().find(|g| g.name.text == name)?;
            Some((&f.attr, &scope.attr))
        })
        .unzip();
    if !scoped.is_empty() {
        with.extend(quote!(.__with_unique_scopes(&[#((#scoped, #scopes)),*])));
    }
    with.extend(super::vector::meta(e));
    quote! {
        const META: &'static __dk_EntityMeta = &__dk_EntityMeta::__new(
            #type_name, #disc, #disc_attr, #pk, #sk, &[#(#indexes),*], &[#(#fields),*]
        ) #with;
    }
}
