//! The item codec: `to_item`, `from_item` and `item_key` of an entity, and
//! `Attr` of a nested struct; straight-line calls into the runtime's
//! `ItemWriter` and `ItemReader` (no serde).

use proc_macro2::TokenStream;
use quote::{quote, quote_spanned};

use super::keys::{builder, from_self, opt_builder};
use crate::model::{DefaultValue, Entity, Field};
use crate::unraw::local;

/// What `to_item` hands the writer for one attribute.
enum Source {
    /// A constant text (the discriminator).
    Text(String),
    /// A key, by its builder (absent while an input of a sparse key is).
    Key(TokenStream),
    /// A field the writer encodes (`&self.f`).
    Attr(TokenStream),
    /// A field's value encoded otherwise (`Option<AttributeValue>`).
    Value(TokenStream),
    /// A field's value whose encoding can fail (`serde`).
    Encoded(TokenStream),
}

/// What `to_item` hands the writer for stored field `f`, with the field
/// type's span (a type without `Attr` gets its error at the field).
fn encode(f: &Field) -> Source {
    let id = &f.name.ident;
    let sp = f.ty_span;
    if f.serde() {
        let name = &f.name.text;
        return Source::Encoded(quote!(__dk_serde_to_attr(&self.#id, #name)));
    }
    if f.ttl() {
        let call = quote_spanned!(sp=> __dk_Ttl::ttl_to_attr);
        return Source::Value(quote!(#call(&self.#id)));
    }
    if f.omit_empty() {
        let call = quote_spanned!(sp=> __dk_attr_unless_empty);
        return Source::Value(quote!(#call(&self.#id)));
    }
    Source::Attr(quote_spanned!(sp=> &self.#id))
}

/// The body of `to_item`. Every attribute value goes to the runtime's
/// `ItemWriter` at its slot with one call and no early return (the writer
/// keeps the first error); the map comes from a per-type template of every
/// attribute name, so no name is hashed per item.
pub fn to_item(e: &Entity) -> TokenStream {
    let mut sources: Vec<(String, Source)> =
        vec![(e.disc_attr.clone(), Source::Text(e.discriminator.clone()))];
    for k in std::iter::once(&e.pk).chain(e.sk.iter()) {
        sources.push((
            k.attr.clone(),
            Source::Key(builder(e, k, false, &from_self)),
        ));
    }
    for ix in &e.indexes {
        for k in ix.written_keys() {
            let b = builder(e, k, ix.sparse, &from_self);
            sources.push((k.attr.clone(), Source::Key(b)));
        }
    }
    for (_, f) in e.struct_fields().filter(|(_, f)| !f.skip()) {
        sources.push((f.attr.clone(), encode(f)));
    }
    // Two sources for one attribute (fields renamed alike) share a slot:
    // the last one that has a value wins, as with successive inserts.
    let w = local("w");
    let mut names: Vec<String> = Vec::new();
    let mut calls = TokenStream::new();
    for (attr, source) in sources {
        let slot = names.iter().position(|a| *a == attr).unwrap_or_else(|| {
            names.push(attr);
            names.len() - 1
        });
        let at = syn::Index::from(slot);
        calls.extend(match source {
            Source::Text(t) => quote!(#w.text(#at, #t);),
            Source::Key(b) => quote!(#w.built(#at, #b);),
            Source::Attr(v) => quote!(#w.attr(#at, #v);),
            Source::Value(v) => quote!(#w.set(#at, #v);),
            Source::Encoded(v) => quote!(#w.encoded(#at, #v);),
        });
    }
    let n = names.len();
    quote! {
        static __TEMPLATE: __dk_OnceLock<__dk_ItemTemplate> = __dk_OnceLock::new();
        let mut #w = __dk_ItemWriter::<#n>::default();
        #calls
        #w.finish(&__TEMPLATE, &[#(#names),*])
    }
}

/// The table key of the item itself.
pub fn item_key(e: &Entity) -> TokenStream {
    let pk = builder(e, &e.pk, false, &from_self);
    let sk = opt_builder(e, e.sk.as_ref(), &from_self);
    quote!(#pk.table_key(#sk))
}

/// The value of field `f` read by the reader `r`.
fn decode(f: &Field, r: &proc_macro2::Ident) -> TokenStream {
    let attr = &f.attr;
    let sp = f.ty_span;
    if f.skip() {
        return quote_spanned!(sp=> __dk_Default::default());
    }
    let read = if f.serde() {
        quote_spanned!(sp=> #r.serde(#attr))
    } else if f.ttl() {
        quote_spanned!(sp=> #r.ttl(#attr))
    } else {
        match &f.default {
            Some(DefaultValue::Trait) => quote_spanned!(sp=> #r.or_default(#attr)),
            Some(DefaultValue::Path(path)) => quote_spanned!(sp=> #r.or_else(#attr, #path)),
            None if f.omit_empty() => quote_spanned!(sp=> #r.or_default(#attr)),
            None => quote_spanned!(sp=> #r.get(#attr)),
        }
    };
    quote!(#read?)
}

/// `Self { field: <read>, .. }` over the reader `r`.
pub fn construct(fields: &[Field], r: &proc_macro2::Ident) -> TokenStream {
    let inits = fields.iter().filter(|f| !f.synthetic).map(|f| {
        let id = &f.name.ident;
        let read = decode(f, r);
        quote!(#id: #read)
    });
    quote!(Self { #(#inits),* })
}

/// The body of `from_item`: the discriminator checked, then each field
/// read in order (the first error ends it).
pub fn from_item(e: &Entity) -> TokenStream {
    let r = local("r");
    let (attr, disc) = (&e.disc_attr, &e.discriminator);
    let value = construct(&e.fields, &r);
    quote! {
        let #r = __dk_ItemReader::new(__item, #attr, #disc)?;
        __dk_Ok(#value)
    }
}
