//! Key builders, sort-key condition chains and key parsers.

use proc_macro2::TokenStream;
use quote::{format_ident, quote, quote_spanned};
use syn::spanned::Spanned;
use syn::Ident;

use crate::model::{Entity, Field, KeyKind, KeyModel, Part};
use crate::template::Format;
use crate::types::TypeKind;

pub fn private() -> TokenStream {
    quote!(::dynakey::__private)
}

/// The parameter type of a public key function: strings by `AsRef<str>`,
/// everything else by `Borrow<T>` (so `T` and `&T` both work).
pub fn arg_ty(f: &Field) -> TokenStream {
    let inner = &f.inner;
    if f.kind == TypeKind::String {
        quote!(impl ::core::convert::AsRef<str>)
    } else {
        quote!(impl ::core::borrow::Borrow<#inner>)
    }
}

/// Rebinds a public parameter as a plain reference (`&str` or `&T`).
pub fn arg_rebind(f: &Field) -> TokenStream {
    let id = &f.ident;
    let inner = &f.inner;
    if f.kind == TypeKind::String {
        quote!(let #id: &str = ::core::convert::AsRef::<str>::as_ref(&#id);)
    } else {
        quote!(let #id: &#inner = ::core::borrow::Borrow::<#inner>::borrow(&#id);)
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
fn of_index(k: &KeyModel) -> String {
    k.index
        .as_ref()
        .map(|i| format!(" of index `{i}`"))
        .unwrap_or_default()
}

fn kind_ty(k: KeyKind) -> TokenStream {
    let p = private();
    match k {
        KeyKind::Table => quote!(#p::Table),
        KeyKind::Global => quote!(#p::Global),
        KeyKind::Local => quote!(#p::Local),
    }
}

fn opt_str(s: &Option<String>) -> TokenStream {
    match s {
        Some(s) => quote!(::core::option::Option::Some(#s)),
        None => quote!(::core::option::Option::None),
    }
}

/// Appends field `f` (a `&str` / `&T` named `v`) to `__s` under `format`.
/// Trait calls carry the field type's span, so a type that lacks the
/// format's trait gets one error pointing at the field.
fn write_part(f: &Field, format: Format, v: &TokenStream, delim: Option<char>) -> TokenStream {
    let p = private();
    let name = f.ident.to_string();
    let inner = &f.inner;
    let sp = f.inner.span();
    let d = match delim {
        Some(c) => quote!(::core::option::Option::Some(#c)),
        None => quote!(::core::option::Option::None),
    };
    let err = quote!(.map_err(|__e| __CX.err(#name, __e))?;);
    match format {
        Format::Text if f.kind == TypeKind::String => {
            quote!(#p::str_part(&mut __s, #v, &__CX, #name, #d)?;)
        }
        Format::Text => {
            let call = quote_spanned!(sp=> <#inner as #p::KeyText>::write_text);
            quote! {
                let __start = __s.len();
                #call(#v, &mut __s) #err
                #p::check_written(&__s, __start, &__CX, #name, #d)?;
            }
        }
        Format::Padded(w) => {
            let call = quote_spanned!(sp=> <#inner as #p::KeyPadded>::write_padded);
            quote!(#call(#v, #w, &mut __s) #err)
        }
        Format::Signed(w) => {
            let call = quote_spanned!(sp=> <#inner as #p::KeySigned>::write_signed);
            quote!(#call(#v, #w, &mut __s) #err)
        }
        Format::Decimal(w, pl) => {
            let call = quote_spanned!(sp=> <#inner as #p::KeyDecimal>::write_decimal);
            quote!(#call(#v, #w, #pl, &mut __s) #err)
        }
        Format::Reverse => {
            let call = quote_spanned!(sp=> <#inner as #p::KeyReverse>::write_reverse);
            quote!(#call(#v, &mut __s) #err)
        }
    }
}

fn parse_part(f: &Field, format: Format, part: &TokenStream) -> TokenStream {
    let p = private();
    let name = f.ident.to_string();
    let inner = &f.inner;
    let sp = f.inner.span();
    let call = match format {
        Format::Text => quote_spanned!(sp=> <#inner as #p::KeyText>::parse_text(#part)),
        Format::Padded(w) => {
            quote_spanned!(sp=> <#inner as #p::KeyPadded>::parse_padded(#part, #w))
        }
        Format::Signed(w) => {
            quote_spanned!(sp=> <#inner as #p::KeySigned>::parse_signed(#part, #w))
        }
        Format::Decimal(w, pl) => {
            quote_spanned!(sp=> <#inner as #p::KeyDecimal>::parse_decimal(#part, #w, #pl))
        }
        Format::Reverse => quote_spanned!(sp=> <#inner as #p::KeyReverse>::parse_reverse(#part)),
    };
    quote!(#call.map_err(|__e| __CX.err(#name, __e))?)
}

fn delim_of(next: &Option<String>) -> Option<char> {
    next.as_ref().and_then(|l| l.chars().next())
}

/// Distinct fields of a key, in template order.
fn key_fields(k: &KeyModel) -> Vec<usize> {
    let mut v: Vec<usize> = Vec::new();
    for f in k.fields() {
        if !v.contains(&f) {
            v.push(f);
        }
    }
    v
}

fn internal_fn(k: &KeyModel) -> Ident {
    format_ident!("__key_{}", k.fn_name)
}

fn cx_const(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let disc = &e.discriminator;
    let tpl = &k.template;
    quote!(const __CX: #p::Cx = #p::Cx { entity: #disc, template: #tpl };)
}

/// `__key_<name>(&fields..) -> Result<String, KeyFormatError>`: the text of one key.
fn text_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let name = internal_fn(k);
    let fields = key_fields(k);
    let params = fields.iter().map(|&i| {
        let f = &e.fields[i];
        let id = &f.ident;
        let t = ref_ty(f);
        quote!(#id: #t)
    });
    let cap: usize = k
        .parts
        .iter()
        .map(|p| match p {
            Part::Lit(l) => l.len(),
            Part::Field { .. } => 16,
        })
        .sum();
    let body = k.parts.iter().map(|part| match part {
        Part::Lit(l) => quote!(__s.push_str(#l);),
        Part::Field {
            field,
            format,
            next_lit,
        } => {
            let f = &e.fields[*field];
            let id = &f.ident;
            write_part(f, *format, &quote!(#id), delim_of(next_lit))
        }
    });
    let cx = cx_const(e, k);
    quote! {
        #[doc(hidden)]
        #[allow(clippy::needless_question_mark, clippy::too_many_arguments)]
        pub fn #name(#(#params),*) -> ::core::result::Result<#p::String, #p::KeyFormatError> {
            #cx
            let mut __s = #p::String::with_capacity(#cap);
            #(#body)*
            #p::non_empty(__s, &__CX)
        }
    }
}

/// Calls `__key_<name>` with the entity's own fields (`&self.f`, or the
/// bound names inside a sparse-index block).
pub fn call_text_fn(e: &Entity, k: &KeyModel, bound: bool) -> TokenStream {
    let name = internal_fn(k);
    let args = key_fields(k).into_iter().map(|i| {
        let id = &e.fields[i].ident;
        if bound {
            quote!(#id)
        } else {
            quote!(&self.#id)
        }
    });
    quote!(Self::#name(#(#args),*)?)
}

fn parse_fn(e: &Entity, k: &KeyModel) -> TokenStream {
    let p = private();
    let name = format_ident!("parse_{}", k.fn_name);
    let mut steps = Vec::new();
    let mut outs = Vec::new();
    let mut tys = Vec::new();
    for part in &k.parts {
        match part {
            Part::Lit(l) => steps.push(quote!(let __rest = #p::lit(__rest, #l, &__CX)?;)),
            Part::Field {
                field,
                format,
                next_lit,
            } => {
                let f = &e.fields[*field];
                let id = format_ident!("__f_{}", f.ident);
                let nl = opt_str(next_lit);
                let parse = parse_part(f, *format, &quote!(__part));
                steps.push(quote! {
                    let (__part, __rest) = #p::take(__rest, #nl);
                    let #id = #parse;
                });
                outs.push(id);
                let inner = &f.inner;
                tys.push(quote!(#inner));
            }
        }
    }
    let cx = cx_const(e, k);
    let doc = format!(
        "Parses a stored `{}` key (`{}`) back into its fields, in template order.",
        k.attr, k.template
    );
    quote! {
        #[doc = #doc]
        #[allow(unused_parens)]
        pub fn #name(key: &str) -> ::core::result::Result<(#(#tys,)*), #p::KeyFormatError> {
            #cx
            let __rest = key;
            #(#steps)*
            #p::end(__rest, &__CX)?;
            ::core::result::Result::Ok((#(#outs,)*))
        }
    }
}

/// The public parameters of the fields of some keys, each field once in
/// template order (`impl AsRef<str>` / `impl Borrow<T>`), and the lines
/// rebinding them as plain references for the internal key functions.
fn public_params<'a>(
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
    let kind = kind_ty(k.kind);
    let index = opt_str(&k.index);
    let attr = &k.attr;
    let ident = &e.ident;
    let doc = format!(
        "The partition key `{}` = \"{}\"{}.",
        k.attr,
        k.template,
        of_index(k)
    );
    quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        pub fn #name(#(#params),*) -> ::core::result::Result<#p::PartitionKey<#ident, #kind>, #p::KeyFormatError> {
            #(#rebinds)*
            ::core::result::Result::Ok(#p::PartitionKey::__new(#index, #attr, #call))
        }
    }
}

/// The sort-key condition chain: one struct per number of fixed fields.
fn cond_chain(e: &Entity, k: &KeyModel, vis: &syn::Visibility) -> (TokenStream, TokenStream) {
    let p = private();
    let ident = &e.ident;
    let kind = kind_ty(k.kind);
    let index = opt_str(&k.index);
    let attr = &k.attr;
    let camel: String = k
        .fn_name
        .split('_')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
                None => String::new(),
            }
        })
        .collect();
    let level = |i: usize| format_ident!("{}{}Cond{}", ident, camel, i);
    let cond_ty = quote!(#p::SortKeyCondition<#ident, #kind>);
    let res = quote!(::core::result::Result<#cond_ty, #p::KeyFormatError>);
    let mk = quote!(#p::SortKeyCondition::__new(#index, #attr, __op));
    let cx = cx_const(e, k);

    // The fields in order with their format and the literal after them.
    let fields: Vec<(&Field, Format, Option<String>)> = k
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Field {
                field,
                format,
                next_lit,
            } => Some((&e.fields[*field], *format, next_lit.clone())),
            Part::Lit(_) => None,
        })
        .collect();
    let n = fields.len();
    let mut items = Vec::new();
    #[allow(clippy::needless_range_loop)] // `i` is the depth, used beyond indexing
    for i in 0..=n {
        let this = level(i);
        let doc = if i == 0 {
            format!("Conditions on `{}` = \"{}\" of `{}`: fix leading fields in order, then compare the next one.", k.attr, k.template, ident)
        } else {
            format!("`{}` with its first {} field(s) fixed.", k.template, i)
        };
        let mut methods = Vec::new();
        methods.push(quote! {
            /// Keys that begin with the literal prefix and the fields fixed so
            /// far: at depth zero, every item of this type.
            pub fn begins_with(self) -> #res {
                let __p = self.__prefix?;
                let __op = #p::bounds::begins_with(&__p);
                ::core::result::Result::Ok(#mk)
            }
        });
        if i == n {
            methods.push(quote! {
                /// The one key with every field fixed.
                pub fn eq(self) -> #res {
                    let __op = #p::SortKeyOp::Eq(self.__prefix?);
                    ::core::result::Result::Ok(#mk)
                }
            });
        } else {
            let (f, format, next) = &fields[i];
            let id = &f.ident;
            let aty = arg_ty(f);
            let rebind = arg_rebind(f);
            let next_level = level(i + 1);
            let write = write_part(f, *format, &quote!(#id), delim_of(next));
            let tail = next.clone().unwrap_or_default();
            let set_doc = format!("Fixes `{id}`.");
            methods.push(quote! {
                #[doc = #set_doc]
                pub fn #id(self, #id: #aty) -> #next_level {
                    #rebind
                    #next_level {
                        __prefix: self.__prefix.and_then(|mut __s| {
                            #cx
                            #write
                            __s.push_str(#tail);
                            ::core::result::Result::Ok(__s)
                        }),
                    }
                }
            });
            let fmt_fn = format_ident!("__fmt_{}", id);
            methods.push(quote! {
                fn #fmt_fn(#id: #aty) -> ::core::result::Result<#p::String, #p::KeyFormatError> {
                    #rebind
                    #cx
                    let mut __s = #p::String::new();
                    #write
                    ::core::result::Result::Ok(__s)
                }
            });
            for (op, doc) in [
                ("lt", "below"),
                ("le", "at or below"),
                ("gt", "above"),
                ("ge", "at or above"),
            ] {
                let op_id = format_ident!("{}", op);
                let doc = format!("`{id}` {doc} the value (within the fields fixed so far).");
                methods.push(quote! {
                    #[doc = #doc]
                    pub fn #op_id(self, #id: #aty) -> #res {
                        let __p = self.__prefix?;
                        let __v = Self::#fmt_fn(#id)?;
                        let __op = #p::bounds::#op_id(&__p, &__v, #tail);
                        ::core::result::Result::Ok(#mk)
                    }
                });
            }
            let bdoc = format!("`{id}` between `lo` and `hi`, both included.");
            methods.push(quote! {
                #[doc = #bdoc]
                pub fn between(self, lo: #aty, hi: #aty) -> #res {
                    let __p = self.__prefix?;
                    let __lo = Self::#fmt_fn(lo)?;
                    let __hi = Self::#fmt_fn(hi)?;
                    let __op = #p::bounds::between(&__p, &__lo, &__hi, #tail);
                    ::core::result::Result::Ok(#mk)
                }
            });
        }
        items.push(quote! {
            #[doc = #doc]
            #[must_use]
            #vis struct #this {
                __prefix: ::core::result::Result<#p::String, #p::KeyFormatError>,
            }
            impl #this {
                #(#methods)*
            }
        });
    }
    let entry_name = format_ident!("{}", k.fn_name);
    let first = level(0);
    let prefix = k.prefix();
    let doc = format!(
        "Sort-key conditions on `{}` = \"{}\"{}.",
        k.attr,
        k.template,
        of_index(k)
    );
    let entry = quote! {
        #[doc = #doc]
        pub fn #entry_name() -> #first {
            #first { __prefix: ::core::result::Result::Ok(#p::String::from(#prefix)) }
        }
    };
    (quote!(#(#items)*), entry)
}

pub struct KeyCode {
    /// Items outside the impl (condition structs).
    pub outer: TokenStream,
    /// Associated functions.
    pub inherent: TokenStream,
}

pub fn keys(e: &Entity, vis: &syn::Visibility) -> KeyCode {
    let p = private();
    let ident = &e.ident;
    let mut outer = Vec::new();
    let mut inherent = Vec::new();

    let mut all: Vec<&KeyModel> = vec![&e.pk];
    all.extend(e.sk.iter());
    for ix in &e.indexes {
        // A local index's partition key is the table's, under the index's name.
        all.push(&ix.pk);
        all.extend(ix.sk.iter());
    }
    for k in &all {
        inherent.push(text_fn(e, k));
        inherent.push(parse_fn(e, k));
        if k.fn_name.ends_with("_sk") || k.fn_name == "sk" {
            let (o, entry) = cond_chain(e, k, vis);
            outer.push(o);
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
            quote!(::core::option::Option::Some((#attr, #call)))
        }
        None => quote!(::core::option::Option::None),
    };
    let doc = format!(
        "The table key of one `{}`: `{}` = \"{}\"{}.",
        ident,
        e.pk.attr,
        e.pk.template,
        e.sk.as_ref()
            .map(|s| format!(", `{}` = \"{}\"", s.attr, s.template))
            .unwrap_or_default()
    );
    inherent.push(quote! {
        #[doc = #doc]
        #[allow(clippy::too_many_arguments)]
        pub fn key(#(#params),*) -> ::core::result::Result<#p::Key<#ident>, #p::KeyFormatError> {
            #(#rebinds)*
            ::core::result::Result::Ok(#p::Key::__new(#pk_attr, #pk_call, #sk))
        }
    });

    // Index keys: `<index>_key(..)` → (pk text, sk text).
    for ix in &e.indexes {
        let (params, rebinds) = public_params(e, std::iter::once(&ix.pk).chain(ix.sk.iter()));
        let pk_call = call_text_fn(e, &ix.pk, true);
        let sk = match &ix.sk {
            Some(sk) => {
                let call = call_text_fn(e, sk, true);
                quote!(::core::option::Option::Some(#call))
            }
            None => quote!(::core::option::Option::None),
        };
        let name = format_ident!("{}_key", ix.snake);
        let doc = format!(
            "The key texts (partition, sort) an item gets in index `{}`.",
            ix.name
        );
        inherent.push(quote! {
            #[doc = #doc]
            #[allow(clippy::too_many_arguments)]
            pub fn #name(#(#params),*) -> ::core::result::Result<(#p::String, ::core::option::Option<#p::String>), #p::KeyFormatError> {
                #(#rebinds)*
                ::core::result::Result::Ok((#pk_call, #sk))
            }
        });
    }
    KeyCode {
        outer: quote!(#(#outer)*),
        inherent: quote!(#(#inherent)*),
    }
}
