//! Key builders, sort-key condition chains and key parsers.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use crate::model::{Entity, Field, KeyModel, KeyRole, Part};
use crate::template::Format;
use crate::types::TypeKind;

use super::private;

/// The parameter type of a public key function: strings by `AsRef<str>`,
/// everything else by `Borrow<T>` (so `T` and `&T` both work).
pub fn arg_ty(f: &Field) -> TokenStream {
    let inner = &f.inner;
    if f.kind == TypeKind::String {
        quote!(impl __dk::AsRef<str>)
    } else {
        quote!(impl __dk::Borrow<#inner>)
    }
}

/// Rebinds a public parameter as a plain reference (`&str` or `&T`).
pub fn arg_rebind(f: &Field) -> TokenStream {
    arg_rebind_of(f, &f.ident)
}

/// The bound of an `impl AsRef<str>` / `impl Borrow<T>` parameter brings
/// its method into scope, so the call needs no path.
fn arg_rebind_of(f: &Field, id: &Ident) -> TokenStream {
    let inner = &f.inner;
    if f.kind == TypeKind::String {
        quote!(let #id: &str = #id.as_ref();)
    } else {
        quote!(let #id: &#inner = #id.borrow();)
    }
}

/// `#[allow(clippy::too_many_arguments)]` where a function takes more
/// than clippy's limit of seven.
pub fn allow_many(n: usize) -> TokenStream {
    if n > 7 {
        quote!(#[allow(clippy::too_many_arguments)])
    } else {
        TokenStream::new()
    }
}

/// The parameter type of an internal key function.
pub fn ref_ty(f: &Field) -> TokenStream {
    let inner = &f.inner;
    if f.kind == TypeKind::String {
        quote!(&str)
    } else {
        quote!(&#inner)
    }
}

/// " of index `GSI1`" for an index key, nothing for the table's (docs).
pub fn of_index(k: &KeyModel) -> String {
    k.index
        .as_ref()
        .map(|i| format!(" of index `{i}`"))
        .unwrap_or_default()
}

pub fn kind_ty(k: &KeyModel) -> TokenStream {
    let p = private();
    let kind = format_ident!("{}", k.kind_name());
    quote!(#p::#kind)
}

pub fn opt_str(s: &Option<String>) -> TokenStream {
    match s {
        Some(s) => quote!(__dk::Some(#s)),
        None => quote!(__dk::None),
    }
}

/// Writes field `f` (a `&str` / `&T` named by `v`) with the writer `__w`.
/// Trait calls carry the field type's span, so a type that lacks the
/// format's trait gets one error pointing at the field.
pub fn write_part(f: &Field, format: Format, v: &TokenStream) -> TokenStream {
    let inner = &f.inner;
    let sp = f.inner.span();
    match format {
        Format::Text | Format::Path if f.kind == TypeKind::String => quote!(__w.str(#v)),
        Format::Text | Format::Path => quote_spanned!(sp=> __w.text::<#inner>(#v)),
        Format::Padded(_) => quote_spanned!(sp=> __w.padded::<#inner>(#v)),
        Format::Signed(_) => quote_spanned!(sp=> __w.signed::<#inner>(#v)),
        Format::Decimal(..) => quote_spanned!(sp=> __w.decimal::<#inner>(#v)),
        Format::Reverse => quote_spanned!(sp=> __w.reverse::<#inner>(#v)),
    }
}

/// The runtime's writer method for field `f` as a function (no closure
/// body to type-check per entity), with the field type's span like
/// [`write_part`].
pub fn write_fn_path(f: &Field, format: Format) -> TokenStream {
    let inner = &f.inner;
    let sp = f.inner.span();
    match format {
        Format::Text | Format::Path if f.kind == TypeKind::String => quote!(__dk::KeyWriter::str),
        Format::Text | Format::Path => quote_spanned!(sp=> __dk::KeyWriter::text::<#inner>),
        Format::Padded(_) => quote_spanned!(sp=> __dk::KeyWriter::padded::<#inner>),
        Format::Signed(_) => quote_spanned!(sp=> __dk::KeyWriter::signed::<#inner>),
        Format::Decimal(..) => quote_spanned!(sp=> __dk::KeyWriter::decimal::<#inner>),
        Format::Reverse => quote_spanned!(sp=> __dk::KeyWriter::reverse::<#inner>),
    }
}

/// Reads field `f` with the reader `__r`.
fn read_part(f: &Field, format: Format) -> TokenStream {
    let inner = &f.inner;
    let sp = f.inner.span();
    match format {
        Format::Text | Format::Path if f.kind == TypeKind::String => quote!(__r.str()),
        Format::Text | Format::Path => quote_spanned!(sp=> __r.text::<#inner>()),
        Format::Padded(_) => quote_spanned!(sp=> __r.padded::<#inner>()),
        Format::Signed(_) => quote_spanned!(sp=> __r.signed::<#inner>()),
        Format::Decimal(..) => quote_spanned!(sp=> __r.decimal::<#inner>()),
        Format::Reverse => quote_spanned!(sp=> __r.reverse::<#inner>()),
    }
}

/// Distinct fields of a key, in template order.
pub fn key_fields(k: &KeyModel) -> Vec<usize> {
    k.distinct_fields()
}

fn internal_fn(k: &KeyModel) -> Ident {
    format_ident!("__key_{}", k.fn_name)
}

/// `__TPL_<NAME>`: the template's static description (a free item of
/// the expansion's `const _` block, like the `__key_*` writers: nothing
/// outside the block names them, so they need no `pub` or `doc(hidden)`).
pub fn tpl_const(k: &KeyModel) -> Ident {
    format_ident!("__TPL_{}", k.fn_name.to_uppercase())
}

/// The const describing template `k` to the runtime.
fn tpl_def(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let name = tpl_const(k);
    let disc = &e.discriminator;
    let text = &k.template;
    let parts = k.parts.iter().map(|part| match part {
        Part::Lit(l) => quote!(#p::lit(#l)),
        Part::Field { field, format } => {
            let name = e.fields[*field].name();
            let f = match *format {
                Format::Text => quote!(Text),
                Format::Padded(w) => quote!(Padded(#w)),
                Format::Signed(w) => quote!(Signed(#w)),
                Format::Decimal(w, pl) => quote!(Decimal(#w, #pl)),
                Format::Reverse => quote!(Reverse),
                Format::Path => quote!(Path),
            };
            quote!(#p::part(#name, #p::PartFormat::#f))
        }
    });
    let of_index = k.index.as_ref().map(|ix| quote!(.of_index(#ix)));
    quote! {
        const #name: &#p::KeyTemplate = &#p::KeyTemplate::new(#disc, #text, &[#(#parts),*])#of_index;
    }
}

/// `__key_<name>(&fields..) -> Result<String, KeyFormatError>`: the text of one key.
fn text_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let name = internal_fn(k);
    let fields = key_fields(k);
    let params: Vec<TokenStream> = fields
        .iter()
        .map(|&i| {
            let f = &e.fields[i];
            let id = &f.ident;
            let t = ref_ty(f);
            quote!(#id: #t)
        })
        .collect();
    let writes = k.parts.iter().filter_map(|part| match part {
        Part::Lit(_) => None,
        Part::Field { field, format } => {
            let f = &e.fields[*field];
            let id = &f.ident;
            let w = write_part(f, *format, &quote!(#id));
            Some(quote!(#w?;))
        }
    });
    let tpl = tpl_const(k);
    let allow = allow_many(fields.len());
    quote! {
        #allow
        fn #name(#(#params),*) -> #p::Result<#p::String, #p::KeyFormatError> {
            let mut __w = #p::KeyWriter::new(#tpl);
            #(#writes)*
            __w.finish()
        }
    }
}

/// Calls `__key_<name>` with the entity's own fields (`&self.f`, or the
/// bound names inside a sparse-index block), and `?` on the result.
pub fn call_text_fn(e: &Entity, k: &KeyModel, bound: bool) -> TokenStream {
    let call = call_key_fn(e, k, bound);
    quote!(#call?)
}

/// [`call_text_fn`] without the `?`: the `Result` itself.
pub fn call_key_fn(e: &Entity, k: &KeyModel, bound: bool) -> TokenStream {
    let name = internal_fn(k);
    let args = key_fields(k).into_iter().map(|i| {
        let id = &e.fields[i].ident;
        if bound {
            quote!(#id)
        } else {
            quote!(&self.#id)
        }
    });
    quote!(#name(#(#args),*))
}

fn parse_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let name = format_ident!("parse_{}", k.fn_name);
    let mut steps = Vec::new();
    let mut outs = Vec::new();
    let mut tys = Vec::new();
    for part in &k.parts {
        if let Part::Field { field, format } = part {
            let f = &e.fields[*field];
            let id = format_ident!("__f_{}", f.ident);
            let read = read_part(f, *format);
            steps.push(quote!(let #id = #read?;));
            outs.push(id);
            let inner = &f.inner;
            tys.push(quote!(#inner));
        }
    }
    let tpl = tpl_const(k);
    let doc = format!(
        "Parses a stored `{}` key (`{}`) back into its fields, in template order.",
        k.attr, k.template
    );
    quote! {
        #[doc = #doc]
        pub fn #name(key: &str) -> #p::Result<(#(#tys,)*), #p::KeyFormatError> {
            let mut __r = #p::KeyReader::new(#tpl, key)?;
            #(#steps)*
            __r.end()?;
            #p::Ok((#(#outs,)*))
        }
    }
}

/// The public parameters of the fields of some keys, each field once in
/// template order (`impl AsRef<str>` / `impl Borrow<T>`), and the lines
/// rebinding them as plain references for the internal key functions.
pub fn public_params<'a>(
    e: &Entity,
    keys: impl IntoIterator<Item = &'a KeyModel>,
) -> (Vec<TokenStream>, Vec<TokenStream>) {
    let mut fields: Vec<usize> = Vec::new();
    for k in keys {
        for f in key_fields(k) {
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
    }
    let params = fields
        .iter()
        .map(|&i| {
            let f = &e.fields[i];
            let id = &f.ident;
            let t = arg_ty(f);
            quote!(#id: #t)
        })
        .collect();
    let rebinds = fields.iter().map(|&i| arg_rebind(&e.fields[i])).collect();
    (params, rebinds)
}

/// The public partition-key function, e.g. `pk(org)` or `gsi1_pk(team)`.
fn pk_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let name = format_ident!("{}", k.fn_name);
    let (params, rebinds) = public_params(e, [k]);
    let call = call_text_fn(e, k, true);
    let kind = kind_ty(k);
    let index = opt_str(&k.index);
    let attr = &k.attr;
    let ident = &e.ident;
    let doc = format!(
        "The partition key `{}` = `{}`{}.",
        k.attr,
        k.template,
        of_index(k)
    );
    let allow = allow_many(params.len());
    quote! {
        #[doc = #doc]
        #allow
        pub fn #name(#(#params),*) -> #p::Result<#p::PartitionKey<#ident, #kind>, #p::KeyFormatError> {
            #(#rebinds)*
            #p::Ok(#p::PartitionKey::__new(#index, #attr, #call))
        }
    }
}

pub struct KeyCode {
    /// Items in the user's module (condition structs).
    pub outer: TokenStream,
    /// Their impls.
    pub impls: TokenStream,
    /// Associated functions.
    pub inherent: TokenStream,
}

pub fn keys(e: &Entity, vis: &syn::Visibility) -> KeyCode {
    let p = private();
    let ident = &e.ident;
    let mut outer = Vec::new();
    let mut impls = Vec::new();
    let mut inherent = Vec::new();

    let mut all: Vec<&KeyModel> = vec![&e.pk];
    all.extend(e.sk.iter());
    for ix in &e.indexes {
        // A local index's partition key is the table's, under the index's name.
        all.push(&ix.pk);
        all.extend(ix.sk.iter());
    }
    for k in &all {
        impls.push(tpl_def(e, k));
        impls.push(text_fn(e, k));
        inherent.push(parse_fn(e, k));
        if k.role == KeyRole::Sort {
            let (o, i, entry) = super::chain::cond_chain(e, k, vis);
            outer.push(o);
            impls.push(i);
            inherent.push(entry);
        } else {
            inherent.push(pk_fn(e, k));
        }
    }

    // Table key: `key(..)` from the pk fields then the sk fields not in pk.
    let (params, rebinds) = public_params(e, std::iter::once(&e.pk).chain(e.sk.iter()));
    let pk_call = call_text_fn(e, &e.pk, true);
    let pk_attr = &e.pk.attr;
    let sk = match &e.sk {
        Some(sk) => {
            let call = call_text_fn(e, sk, true);
            let attr = &sk.attr;
            quote!(#p::Some((#attr, #call)))
        }
        None => quote!(#p::None),
    };
    let doc = format!(
        "The table key of one `{}`: `{}` = `{}`{}.",
        ident,
        e.pk.attr,
        e.pk.template,
        e.sk.as_ref()
            .map(|s| format!(", `{}` = `{}`", s.attr, s.template))
            .unwrap_or_default()
    );
    let allow = allow_many(params.len());
    inherent.push(quote! {
        #[doc = #doc]
        #allow
        pub fn key(#(#params),*) -> #p::Result<#p::Key<#ident>, #p::KeyFormatError> {
            #(#rebinds)*
            #p::Ok(#p::Key::__new(#pk_attr, #pk_call, #sk))
        }
    });

    // Index keys: `<index>_key(..)` → (pk text, sk text).
    for ix in &e.indexes {
        let (params, rebinds) = public_params(e, std::iter::once(&ix.pk).chain(ix.sk.iter()));
        let pk_call = call_text_fn(e, &ix.pk, true);
        let sk = match &ix.sk {
            Some(sk) => {
                let call = call_text_fn(e, sk, true);
                quote!(#p::Some(#call))
            }
            None => quote!(#p::None),
        };
        let name = format_ident!("{}_key", ix.snake);
        let doc = format!(
            "The key texts (partition, sort) an item gets in index `{}`.",
            ix.name
        );
        let allow = allow_many(params.len());
        inherent.push(quote! {
            #[doc = #doc]
            #allow
            pub fn #name(#(#params),*) -> #p::Result<(#p::String, #p::Option<#p::String>), #p::KeyFormatError> {
                #(#rebinds)*
                #p::Ok((#pk_call, #sk))
            }
        });
    }
    KeyCode {
        outer: quote!(#(#outer)*),
        impls: quote!(#(#impls)*),
        inherent: quote!(#(#inherent)*),
    }
}
