//! Keys: each template's description (`__TPL_*`), the expressions that
//! write a key from wherever its values are (the public key functions,
//! `to_item`, a typed update), the public key functions and the parsers.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote, quote_spanned};

use super::body;
use crate::model::{Entity, Field, KeyKind, KeyModel, KeyRole, Part};
use crate::template::Format;
use crate::types::TypeKind;

/// `__TPL_<NAME>`: the template's description (a free item of the
/// expansion's `const _` block: nothing outside the block names it).
pub fn tpl_name(k: &KeyModel) -> Ident {
    format_ident!("__TPL_{}", k.fn_name.to_uppercase())
}

/// The const describing template `k` to the runtime: its text, once as
/// written and once split into parts at compile time by the runtime.
pub fn tpl_def(e: &Entity, k: &KeyModel) -> TokenStream {
    let name = tpl_name(k);
    let (disc, attr, text) = (&e.discriminator, &k.attr, &k.tpl.text);
    let n = k.len();
    let index = match &k.index {
        Some(ix) => quote!(__dk_Some(#ix)),
        None => quote!(__dk_None),
    };
    let role = match k.role {
        KeyRole::Partition => quote!(__dk_KeyRole::Partition),
        KeyRole::Sort => quote!(__dk_KeyRole::Sort),
    };
    quote! {
        const #name: &__dk_KeyTemplate = &__dk_KeyTemplate::__derived(#disc, #attr, #index, #text, &__dk_parts::<#n>(#text)).of_role(#role);
    }
}

/// Whether field `f` is written and read as plain text (`str`): no trait
/// call on its type.
pub fn plain_str(f: &Field, format: Format) -> bool {
    f.kind == TypeKind::String && matches!(format, Format::Text | Format::Path)
}

/// The runtime method that writes (and reads) a placeholder of `format`
/// holding field `f`: `str`, `text`, `padded`, ….
pub fn method(f: &Field, format: Format) -> &'static str {
    match format {
        _ if plain_str(f, format) => "str",
        Format::Text | Format::Path => "text",
        Format::Padded(_) => "padded",
        Format::Signed(_) => "signed",
        Format::Decimal(..) => "decimal",
        Format::Reverse => "reverse",
    }
}

/// The runtime form (`<u32 as __dk_KeyPadded>::padded_form()`) of a placeholder of
/// `format` holding field `f`, or `None` for a plain string. Every write
/// and read of the field goes through this one call of the format's trait,
/// spanned at the field's type: a type without the trait is one error there,
/// however many places use the key (rustc reports identical errors once).
pub fn form(f: &Field, format: Format) -> Option<TokenStream> {
    let m = method(f, format);
    if m == "str" {
        return None;
    }
    let tr = format_ident!("__dk_Key{}{}", m[..1].to_uppercase(), &m[1..]);
    let m = format_ident!("{}_form", m);
    let ty = &f.inner;
    Some(quote_spanned!(f.inner_span=> <#ty as #tr>::#m()))
}

/// A key's value for one field, as the writer takes it.
pub enum Val {
    /// A reference (`&T`, or `&str` for a string).
    Ref(TokenStream),
    /// An `Option<&T>`: the key is absent with it.
    Opt(TokenStream),
    /// A typed update's kept value (`__dk::slot(..)`): the key is
    /// rewritten only when the update touches it.
    Slot(TokenStream),
}

/// Values from the entity's own fields (`to_item`, `item_key`): `&self.f`,
/// or `self.f.as_ref()` for an `Option`.
pub fn from_self(_: usize, f: &Field) -> Val {
    let id = &f.name.ident;
    if f.optional {
        Val::Opt(quote!(self.#id.as_ref()))
    } else {
        Val::Ref(quote!(&self.#id))
    }
}

/// Values from the parameters of a public key function (see [`param`]).
pub fn from_params(_: usize, f: &Field) -> Val {
    let id = &f.name.ident;
    if f.kind == TypeKind::String {
        Val::Ref(quote!(#id.as_ref()))
    } else {
        Val::Ref(quote!(#id.borrow()))
    }
}

/// The expression writing key `k` (a `KeyWriter` chain) from the values `val`
/// gives; when `sparse`, an empty `omit_empty` input leaves the key absent
/// too. Each call carries the field type's span, so a type without the
/// format's trait gets its one error at the field.
pub fn builder(
    e: &Entity,
    k: &KeyModel,
    sparse: bool,
    val: &dyn Fn(usize, &Field) -> Val,
) -> TokenStream {
    let tpl = tpl_name(k);
    let mut calls = TokenStream::new();
    for (i, format) in k.placeholders() {
        let f = &e.fields[i];
        let sp = f.inner_span;
        // A string goes in as `str`; any other type through its form,
        // named once per use with the field type's span (see `form`).
        let (m, form) = match form(f, format) {
            Some(form) => ("part", Some(quote!(#form,))),
            None => ("str", None),
        };
        calls.extend(match val(i, f) {
            Val::Opt(v) => {
                let m = format_ident!("opt_{}", m);
                if f.omit_empty() && sparse {
                    quote_spanned!(sp=> .#m(#form __dk_nonempty(#v)))
                } else {
                    quote_spanned!(sp=> .#m(#form #v))
                }
            }
            Val::Slot(v) => {
                let m = format_ident!("slot_{}", m);
                if f.omit_empty() && sparse {
                    quote_spanned!(sp=> .#m(#form __dk_nonempty_slot(#v)))
                } else {
                    quote_spanned!(sp=> .#m(#form #v))
                }
            }
            Val::Ref(v) => {
                let m = format_ident!("{}", m);
                let write = quote_spanned!(sp=> .#m(#form #v));
                if f.omit_empty() && sparse {
                    quote!(.absent_if(__dk_Attr::is_empty_value(#v)) #write)
                } else {
                    write
                }
            }
        });
    }
    quote!(#tpl.build() #calls)
}

/// A public parameter of field `i`: `impl AsRef<str>` for a string,
/// `impl Borrow<T>` otherwise (so a value and a reference both work), and
/// in a stub anything at all.
pub fn param(e: &Entity, i: usize) -> TokenStream {
    param_as(e, i, &e.fields[i].name.ident)
}

/// [`param`] under another name.
pub fn param_as(e: &Entity, i: usize, id: &Ident) -> TokenStream {
    let f = &e.fields[i];
    if e.stub {
        return quote!(_: impl ::core::marker::Sized);
    }
    if f.kind == TypeKind::String {
        quote!(#id: impl __dk_AsRef<str>)
    } else {
        let ty = &f.inner;
        quote!(#id: impl __dk_Borrow<#ty>)
    }
}

/// The distinct fields of some keys, in template order.
pub fn fields_of<'a>(keys: impl IntoIterator<Item = &'a KeyModel>) -> Vec<usize> {
    let mut fields: Vec<usize> = Vec::new();
    for k in keys {
        for f in k.distinct_fields() {
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
    }
    fields
}

/// `#[allow(clippy::too_many_arguments)]`, where needed.
pub fn allow_args(n: usize) -> TokenStream {
    if n > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        quote!()
    }
}

/// " of index `GSI1`" for an index key, nothing for the table's.
pub fn of_index(k: &KeyModel) -> String {
    k.index
        .as_ref()
        .map(|i| format!(" of index `{i}`"))
        .unwrap_or_default()
}

/// The runtime's marker type of a key's kind (`__dk_Global`, …).
pub fn kind_ty(k: &KeyModel) -> Ident {
    let name = match (k.kind, k.partial) {
        (KeyKind::Table, _) => "__dk_Table",
        (KeyKind::Global, false) => "__dk_Global",
        (KeyKind::Global, true) => "__dk_GlobalPartial",
        (KeyKind::Local, false) => "__dk_Local",
        (KeyKind::Local, true) => "__dk_LocalPartial",
    };
    Ident::new(name, proc_macro2::Span::call_site())
}

/// The inherent functions of the keys: `pk(..)` and each index's
/// `<index>_pk(..)`, the sort-key chains' entry points (their steps are
/// `chain`'s), `key(..)`, `<index>_key(..)` and the `parse_*` functions.
pub fn inherent(e: &Entity) -> TokenStream {
    let mut out = TokenStream::new();
    for k in e.all_keys() {
        out.extend(parse_fn(e, k));
        if k.role == KeyRole::Partition {
            out.extend(pk_fn(e, k));
        }
    }
    out.extend(key_fn(e));
    for ix in &e.indexes {
        out.extend(index_key_fn(
            e,
            ix.name.as_str(),
            &ix.snake,
            &ix.pk,
            ix.sk.as_ref(),
        ));
    }
    out
}

/// The public partition-key function, e.g. `pk(org)` or `gsi1_pk(team)`.
fn pk_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let ident = &e.ident;
    let name = format_ident!("{}", k.fn_name);
    let fields = k.distinct_fields();
    let params = fields.iter().map(|&i| param(e, i));
    let allow = allow_args(fields.len());
    let kind = kind_ty(k);
    let doc = format!(
        "The partition key `{}` = `{}`{}.",
        k.attr,
        k.tpl.text,
        of_index(k)
    );
    let body = body(e.stub, || {
        let b = builder(e, k, false, &from_params);
        quote!(#b.partition())
    });
    quote! {
        #[doc = #doc]
        #allow
        pub fn #name(#(#params),*) -> __dk_KeyResult<__dk_PartitionKey<#ident, #kind>> #body
    }
}

/// `key(..)`: the table key from the partition key's fields, then the sort
/// key's that are not in it.
fn key_fn(e: &Entity) -> TokenStream {
    let ident = &e.ident;
    let fields = fields_of(std::iter::once(&e.pk).chain(e.sk.iter()));
    let params = fields.iter().map(|&i| param(e, i));
    let allow = allow_args(fields.len());
    let doc = format!(
        "The table key of one `{ident}`: `{}` = `{}`{}.",
        e.pk.attr,
        e.pk.tpl.text,
        e.sk.as_ref()
            .map(|s| format!(", `{}` = `{}`", s.attr, s.tpl.text))
            .unwrap_or_default()
    );
    let body = body(e.stub, || {
        let pk = builder(e, &e.pk, false, &from_params);
        let sk = opt_builder(e, e.sk.as_ref(), &from_params);
        quote!(#pk.table_key(#sk))
    });
    quote! {
        #[doc = #doc]
        #allow
        pub fn key(#(#params),*) -> __dk_KeyResult<__dk_Key<#ident>> #body
    }
}

/// `Some(builder)` of an optional key, or `None`.
pub fn opt_builder(
    e: &Entity,
    k: Option<&KeyModel>,
    val: &dyn Fn(usize, &Field) -> Val,
) -> TokenStream {
    match k {
        Some(k) => {
            let b = builder(e, k, false, val);
            quote!(__dk_Some(#b))
        }
        None => quote!(__dk_None),
    }
}

/// `<index>_key(..)`: the key texts (partition, sort) an item gets in an
/// index.
fn index_key_fn(
    e: &Entity,
    index: &str,
    snake: &str,
    pk: &KeyModel,
    sk: Option<&KeyModel>,
) -> TokenStream {
    let name = format_ident!("{}_key", snake);
    let fields = fields_of(std::iter::once(pk).chain(sk));
    let params = fields.iter().map(|&i| param(e, i));
    let allow = allow_args(fields.len());
    let doc = format!("The key texts (partition, sort) an item gets in index `{index}`.");
    let body = body(e.stub, || {
        let pkb = builder(e, pk, false, &from_params);
        let skb = opt_builder(e, sk, &from_params);
        quote!(#pkb.index_key(#skb))
    });
    quote! {
        #[doc = #doc]
        #allow
        pub fn #name(#(#params),*) -> __dk_KeyResult<__dk_IndexKeys> #body
    }
}

/// `parse_<key>(text)`: a stored key back into its fields, in template
/// order.
fn parse_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let name = format_ident!("parse_{}", k.fn_name);
    let doc = format!(
        "Parses a stored `{}` key (`{}`) back into its fields, in template order.",
        k.attr, k.tpl.text
    );
    let mut tys = Vec::new();
    let mut reads = Vec::new();
    let r = crate::unraw::local("r");
    for part in &k.parts {
        if let Part::Field { field, format, .. } = part {
            let f = &e.fields[*field];
            tys.push(if f.synthetic {
                quote!(())
            } else {
                let ty = &f.inner;
                quote!(#ty)
            });
            reads.push(match form(f, *format) {
                Some(form) => quote!(#form.read(#r)?),
                None => quote!(#r.str()?),
            });
        }
    }
    let tpl = tpl_name(k);
    let body = body(
        e.stub,
        || quote!(__dk_parse(#tpl, key, |#r| __dk_Ok((#(#reads,)*)))),
    );
    // `#[inline]`: a crate codegens only the parsers it calls (a plain
    // function of a library is compiled whether used or not).
    quote! {
        #[doc = #doc]
        #[inline]
        pub fn #name(key: &str) -> __dk_KeyResult<(#(#tys,)*)> #body
    }
}
