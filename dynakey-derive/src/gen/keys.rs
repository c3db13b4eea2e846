//! Key builders, sort-key condition chains and key parsers.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use crate::model::{Entity, Field, KeyModel, KeyRole, Part};
use crate::template::Format;
use crate::types::TypeKind;

use super::text::{lit, w, Code, Piece, Types};

/// " of index `GSI1`" for an index key, nothing for the table's (docs).
pub fn of_index(k: &KeyModel) -> String {
    k.index
        .as_ref()
        .map(|i| format!(" of index `{i}`"))
        .unwrap_or_default()
}

/// Whether field `f` is written and read as plain text (`str`): no trait
/// call on its type, so nothing needs its span.
pub fn plain_str(f: &Field, format: Format) -> bool {
    f.kind == TypeKind::String && matches!(format, Format::Text | Format::Path)
}

/// Writes field `f` (a `&str` / `&T` named by `v`) with the writer `__w`.
/// Trait calls carry the field type's span, so a type that lacks the
/// format's trait gets one error pointing at the field.
pub fn write_part(f: &Field, format: Format, v: &TokenStream) -> TokenStream {
    let inner = &f.inner;
    let sp = f.inner.span();
    match format {
        _ if plain_str(f, format) => quote!(__w.str(#v)),
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
        _ if plain_str(f, format) => quote!(__dk::KeyWriter::str),
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
        _ if plain_str(f, format) => quote!(__r.str()),
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
pub fn tpl_name(k: &KeyModel) -> String {
    format!("__TPL_{}", k.fn_name.to_uppercase())
}

/// The const describing template `k` to the runtime.
fn tpl_def(e: &Entity, k: &KeyModel, out: &mut String) {
    let mut parts = String::new();
    for part in &k.parts {
        match part {
            Part::Lit(l) => w!(parts, "__dk::lit({}),", lit(l)),
            Part::Field { field, format } => {
                let f = match *format {
                    Format::Text => "Text".to_owned(),
                    Format::Padded(w) => format!("Padded({w}u32)"),
                    Format::Signed(w) => format!("Signed({w}u32)"),
                    Format::Decimal(w, pl) => format!("Decimal({w}u32, {pl}u32)"),
                    Format::Reverse => "Reverse".to_owned(),
                    Format::Path => "Path".to_owned(),
                };
                w!(
                    parts,
                    "__dk::part({}, __dk::PartFormat::{f}),",
                    lit(&e.fields[*field].name())
                );
            }
        }
    }
    let of_index = k
        .index
        .as_ref()
        .map(|ix| format!(".of_index({})", lit(ix)))
        .unwrap_or_default();
    w!(
        out,
        "const {}: &__dk::KeyTemplate = &__dk::KeyTemplate::new({}, {}, &[{parts}]){of_index};",
        tpl_name(k),
        lit(&e.discriminator),
        lit(&k.template)
    );
}

/// `#[allow(clippy::too_many_arguments)]` as text, where needed.
pub fn allow_text(n: usize) -> &'static str {
    if n > 7 {
        "#[allow(clippy::too_many_arguments)]"
    } else {
        ""
    }
}

/// `__key_<name>(&fields..) -> Result<String, KeyFormatError>`: the text of
/// one key. Each non-string write keeps the field type's span (see
/// [`write_part`]).
fn text_fn(e: &Entity, k: &KeyModel, t: &Types, out: &mut Code) {
    let fields = key_fields(k);
    let params: Vec<String> = fields
        .iter()
        .map(|&i| {
            let f = &e.fields[i];
            if f.kind == TypeKind::String {
                format!("{}: &str", f.ident)
            } else {
                format!("{}: &{}", f.ident, t.inner[i])
            }
        })
        .collect();
    let mut body = vec![Piece::Text(format!(
        "let mut __w = __dk::KeyWriter::new({});",
        tpl_name(k)
    ))];
    for part in &k.parts {
        if let Part::Field { field, format } = part {
            let f = &e.fields[*field];
            let id = &f.ident;
            if plain_str(f, *format) {
                body.push(Piece::Text(format!("__w.str({id})?;")));
            } else {
                let w = write_part(f, *format, &quote!(#id));
                body.push(Piece::Tokens(quote!(#w?;)));
            }
        }
    }
    body.push(Piece::Text("__w.finish()".to_owned()));
    out.hybrid_fn(
        &format!(
            "{} fn __key_{}({}) -> __dk::Result<__dk::String, __dk::KeyFormatError>",
            allow_text(fields.len()),
            k.fn_name,
            params.join(", ")
        ),
        body,
    );
}

/// Calls `__key_<name>` with the entity's own fields (`&self.f`, or the
/// bound names inside a sparse-index block): the `Result` itself.
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

/// [`call_key_fn`] as text: `__key_<name>(a, b)` over the bound names
/// (`bound`) or `&self.a` (otherwise).
pub fn call_text(e: &Entity, k: &KeyModel, bound: bool) -> String {
    let args: Vec<String> = key_fields(k)
        .into_iter()
        .map(|i| {
            let id = &e.fields[i].ident;
            if bound {
                id.to_string()
            } else {
                format!("&self.{id}")
            }
        })
        .collect();
    format!("__key_{}({})", k.fn_name, args.join(", "))
}

fn parse_fn(e: &Entity, k: &KeyModel, t: &Types, out: &mut Code) {
    let mut body = vec![Piece::Text(format!(
        "let mut __r = __dk::KeyReader::new({}, key)?;",
        tpl_name(k)
    ))];
    let mut outs = String::new();
    let mut tys = String::new();
    for part in &k.parts {
        if let Part::Field { field, format } = part {
            let f = &e.fields[*field];
            let id = format_ident!("__f_{}", f.ident);
            if plain_str(f, *format) {
                body.push(Piece::Text(format!("let {id} = __r.str()?;")));
            } else {
                let read = read_part(f, *format);
                body.push(Piece::Tokens(quote!(let #id = #read?;)));
            }
            w!(outs, "{id},");
            w!(tys, "{},", t.inner[*field]);
        }
    }
    body.push(Piece::Text(format!("__r.end()?; __dk::Ok(({outs}))")));
    let doc = lit(&format!(
        "Parses a stored `{}` key (`{}`) back into its fields, in template order.",
        k.attr, k.template
    ));
    out.hybrid_fn(
        &format!(
            "#[doc = {doc}] pub fn parse_{}(key: &str) -> __dk::Result<({tys}), __dk::KeyFormatError>",
            k.fn_name
        ),
        body,
    );
}

/// A public parameter's type as text: `impl AsRef<str>` or `impl Borrow<T>`.
pub fn arg_text(e: &Entity, t: &Types, i: usize) -> String {
    if e.fields[i].kind == TypeKind::String {
        "impl __dk::AsRef<str>".to_owned()
    } else {
        format!("impl __dk::Borrow<{}>", t.inner[i])
    }
}

/// The public parameters of the fields of some keys, each field once in
/// template order: see [`params_of`].
pub fn public_params<'a>(
    e: &Entity,
    t: &Types,
    keys: impl IntoIterator<Item = &'a KeyModel>,
) -> (String, String, usize) {
    let mut fields: Vec<usize> = Vec::new();
    for k in keys {
        for f in key_fields(k) {
            if !fields.contains(&f) {
                fields.push(f);
            }
        }
    }
    let (params, rebinds) = params_of(e, t, &fields);
    (params, rebinds, fields.len())
}

/// The public parameters of some fields (`impl AsRef<str>` /
/// `impl Borrow<T>`), and the lines rebinding them as plain references
/// for the internal key functions.
pub fn params_of(e: &Entity, t: &Types, fields: &[usize]) -> (String, String) {
    let params: Vec<String> = fields
        .iter()
        .map(|&i| format!("{}: {}", e.fields[i].ident, arg_text(e, t, i)))
        .collect();
    let mut rebinds = String::new();
    for &i in fields {
        let f = &e.fields[i];
        if f.kind == TypeKind::String {
            w!(rebinds, "let {0}: &str = {0}.as_ref();", f.ident);
        } else {
            w!(
                rebinds,
                "let {0}: &{1} = {0}.borrow();",
                f.ident,
                t.inner[i]
            );
        }
    }
    (params.join(", "), rebinds)
}

/// `__dk::Some("x")` or `__dk::None`, as text.
pub fn opt_text(s: &Option<String>) -> String {
    match s {
        Some(s) => format!("__dk::Some({})", lit(s)),
        None => "__dk::None".to_owned(),
    }
}

/// The public partition-key function, e.g. `pk(org)` or `gsi1_pk(team)`.
fn pk_fn(e: &Entity, k: &KeyModel, t: &Types, out: &mut String) {
    let (params, rebinds, n) = public_params(e, t, [k]);
    let doc = lit(&format!(
        "The partition key `{}` = `{}`{}.",
        k.attr,
        k.template,
        of_index(k)
    ));
    w!(
        out,
        "#[doc = {doc}] {} pub fn {}({params}) -> __dk::Result<__dk::PartitionKey<{}, __dk::{}>, __dk::KeyFormatError> {{ \
         {rebinds} __dk::Ok(__dk::PartitionKey::__new({}, {}, {}?)) }}",
        allow_text(n),
        k.fn_name,
        e.ident,
        k.kind_name(),
        opt_text(&k.index),
        lit(&k.attr),
        call_text(e, k, true)
    );
}

pub struct KeyCode {
    /// Items in the user's module (condition structs).
    pub outer: TokenStream,
    /// Free items and impls of the scoped block.
    pub impls: Code,
    /// Associated functions.
    pub inherent: Code,
}

pub fn keys(e: &Entity, vis: &syn::Visibility, t: &Types) -> KeyCode {
    let ident = &e.ident;
    let mut outer = Vec::new();
    let mut impls = Code::default();
    let mut inherent = Code::default();

    let mut all: Vec<&KeyModel> = vec![&e.pk];
    all.extend(e.sk.iter());
    for ix in &e.indexes {
        // A local index's partition key is the table's, under the index's name.
        all.push(&ix.pk);
        all.extend(ix.sk.iter());
    }
    for k in &all {
        tpl_def(e, k, &mut impls.text);
        text_fn(e, k, t, &mut impls);
        parse_fn(e, k, t, &mut inherent);
        if k.role == KeyRole::Sort {
            let o = super::chain::cond_chain(e, k, vis, t, &mut impls, &mut inherent);
            outer.push(o);
        } else {
            pk_fn(e, k, t, &mut inherent.text);
        }
    }

    // Table key: `key(..)` from the pk fields then the sk fields not in pk.
    let (params, rebinds, n) = public_params(e, t, std::iter::once(&e.pk).chain(e.sk.iter()));
    let sk = match &e.sk {
        Some(sk) => format!(
            "__dk::Some(({}, {}?))",
            lit(&sk.attr),
            call_text(e, sk, true)
        ),
        None => "__dk::None".to_owned(),
    };
    let doc = lit(&format!(
        "The table key of one `{}`: `{}` = `{}`{}.",
        ident,
        e.pk.attr,
        e.pk.template,
        e.sk.as_ref()
            .map(|s| format!(", `{}` = `{}`", s.attr, s.template))
            .unwrap_or_default()
    ));
    w!(
        inherent.text,
        "#[doc = {doc}] {} pub fn key({params}) -> __dk::Result<__dk::Key<{ident}>, __dk::KeyFormatError> {{ \
         {rebinds} __dk::Ok(__dk::Key::__new({}, {}?, {sk})) }}",
        allow_text(n),
        lit(&e.pk.attr),
        call_text(e, &e.pk, true)
    );

    // Index keys: `<index>_key(..)` → (pk text, sk text).
    for ix in &e.indexes {
        let (params, rebinds, n) = public_params(e, t, std::iter::once(&ix.pk).chain(ix.sk.iter()));
        let sk = match &ix.sk {
            Some(sk) => format!("__dk::Some({}?)", call_text(e, sk, true)),
            None => "__dk::None".to_owned(),
        };
        let doc = lit(&format!(
            "The key texts (partition, sort) an item gets in index `{}`.",
            ix.name
        ));
        w!(
            inherent.text,
            "#[doc = {doc}] {} pub fn {}_key({params}) -> __dk::Result<(__dk::String, __dk::Option<__dk::String>), __dk::KeyFormatError> {{ \
             {rebinds} __dk::Ok(({}?, {sk})) }}",
            allow_text(n),
            ix.snake,
            call_text(e, &ix.pk, true)
        );
    }
    KeyCode {
        outer: quote!(#(#outer)*),
        impls,
        inherent,
    }
}
