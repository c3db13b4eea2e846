//! What `table_step!` reads: the table's (or union's) own facts, written
//! by its derive, and each entity's metadata, written by the entity's
//! macro (see `gen::metadata`), in the order the entities are listed.

use proc_macro2::{Span, TokenStream};

use syn::parse::{Parse, ParseStream};
use syn::{braced, bracketed, parenthesized, Ident, LitStr, Path, Token};

/// A key as an entity recorded it: its attribute and template.
#[derive(Clone)]
pub struct MetaKey {
    pub attr: String,
    pub template: String,
}

impl MetaKey {
    pub fn text(&self) -> String {
        self.template.clone()
    }

    /// The literal text before the first placeholder.
    pub fn prefix(&self) -> String {
        let t = self.text();
        t.split('<').next().unwrap_or_default().to_owned()
    }

    /// Whether the last field keeps its text as it is (`:path`).
    pub fn has_path(&self) -> bool {
        self.text().contains(":path>")
    }
}

pub struct MetaIndex {
    pub global: bool,
    pub name: String,
    pub pk: MetaKey,
    pub sk: Option<MetaKey>,
    /// A native index: its keys' text is `pk(a, b)` / `sk(c)` of field
    /// names (as the snapshot writes it), under the attribute `native`.
    pub native: Option<MetaNative>,
}

/// The attributes of a native index, in key order: (stored attribute,
/// `S`/`N`/`B`, or `?` when the derive cannot tell), partition then sort.
pub struct MetaNative {
    pub pk: Vec<(String, String)>,
    pub sk: Vec<(String, String)>,
}

pub struct MetaField {
    pub name: String,
    pub attr: String,
    pub ty: String,
    pub optional: bool,
    pub default: bool,
    /// `own`, `ttl` or `serde`: see `Field::form_word`.
    pub form: String,
}

pub struct MetaEntity {
    pub ident: Ident,
    /// The entity's own derive failed: no check involves it (its errors
    /// are reported already).
    pub failed: bool,
    pub disc: String,
    pub disc_attr: String,
    pub pk: MetaKey,
    pub sk: Option<MetaKey>,
    pub indexes: Vec<MetaIndex>,
    pub fields: Vec<MetaField>,
    /// The vector indexes (`tablecheck::vector`).
    pub vectors: Vec<super::vector::MetaVector>,
}

impl MetaEntity {
    pub fn name(&self) -> String {
        self.ident.to_string()
    }
}

impl Parse for MetaEntity {
    fn parse(outer: ParseStream<'_>) -> syn::Result<Self> {
        let input;
        braced!(input in outer);
        let ident: Ident = input.parse()?;
        let mut e = MetaEntity {
            ident,
            failed: false,
            disc: String::new(),
            disc_attr: String::new(),
            pk: MetaKey {
                attr: String::new(),
                template: String::new(),
            },
            sk: None,
            indexes: Vec::new(),
            fields: Vec::new(),
            vectors: Vec::new(),
        };
        if input.peek(Ident) {
            input.parse::<Ident>()?;
            e.failed = true;
            return Ok(e);
        }
        let text: LitStr = input.parse()?;
        let bad = |m: String| syn::Error::new(text.span(), m);
        let mut keys = 0;
        for line in text.value().lines() {
            let w = dynakey_core::snapshot::words(line).map_err(bad)?;
            let w: Vec<&str> = w.iter().map(String::as_str).collect();
            let key = |attr: &str, tpl: &str| MetaKey {
                attr: attr.to_owned(),
                template: tpl.to_owned(),
            };
            match w.as_slice() {
                ["entity", disc, attr] => {
                    e.disc = (*disc).to_owned();
                    e.disc_attr = (*attr).to_owned();
                }
                ["key", attr, tpl] => {
                    match keys {
                        0 => e.pk = key(attr, tpl),
                        _ => e.sk = Some(key(attr, tpl)),
                    }
                    keys += 1;
                }
                ["index", kind, name, "key", pa, pt, rest @ ..] => e.indexes.push(MetaIndex {
                    global: *kind == "global",
                    name: (*name).to_owned(),
                    pk: key(pa, pt),
                    sk: match rest {
                        ["key", sa, st] => Some(key(sa, st)),
                        _ => None,
                    },
                    native: None,
                }),
                ["native", name, "pk", rest @ ..] => {
                    let (mut pk, mut sk) = (Vec::new(), Vec::new());
                    let (mut pk_f, mut sk_f) = (Vec::new(), Vec::new());
                    let mut in_sk = false;
                    let mut words = rest.iter();
                    while let Some(w) = words.next() {
                        if *w == "sk" {
                            in_sk = true;
                            continue;
                        }
                        let (Some(attr), Some(class)) = (words.next(), words.next()) else {
                            return Err(bad(format!(
                                "a native key of three words per field: {line:?}"
                            )));
                        };
                        let (fs, ks) = if in_sk {
                            (&mut sk_f, &mut sk)
                        } else {
                            (&mut pk_f, &mut pk)
                        };
                        fs.push(*w);
                        ks.push(((*attr).to_owned(), (*class).to_owned()));
                    }
                    let key = |which: &str, fs: &[&str]| MetaKey {
                        attr: "native".into(),
                        template: dynakey_core::snapshot::native_text(which, fs),
                    };
                    e.indexes.push(MetaIndex {
                        global: true,
                        name: (*name).to_owned(),
                        pk: key("pk", &pk_f),
                        sk: (!sk_f.is_empty()).then(|| key("sk", &sk_f)),
                        native: Some(MetaNative { pk, sk }),
                    });
                }
                ["field", name, attr, ty, optional, default, form] => e.fields.push(MetaField {
                    name: (*name).to_owned(),
                    attr: (*attr).to_owned(),
                    ty: (*ty).to_owned(),
                    optional: *optional == "optional",
                    default: *default == "default",
                    form: (*form).to_owned(),
                }),
                ["vector", rest @ ..] => e.vectors.push(
                    super::vector::MetaVector::parse(rest)
                        .ok_or_else(|| bad(format!("not a vector index line: {line:?}")))?,
                ),
                _ => return Err(bad(format!("not a line of an entity's metadata: {line:?}"))),
            }
        }
        Ok(e)
    }
}

/// What the table's (or union's) derive recorded.
pub struct Owner {
    /// `table` or `union`.
    pub kind: Ident,
    pub name: Ident,
    /// The crate path (`::dynakey`).
    pub krate: TokenStream,
    /// The listed entities, with the spans of the list.
    pub entities: Vec<Path>,
    /// Pairs allowed to overlap.
    pub overlaps: Vec<(Path, Path)>,
    /// The snapshot's path, when it exists.
    pub schema: Option<LitStr>,
    pub migrations: Option<Path>,
}

/// The whole input of one `table_step!`.
pub struct Step {
    pub owner: Owner,
    /// The entities whose macro is still to be called.
    pub rest: Vec<Path>,
    pub metas: Vec<MetaEntity>,
}

fn paths(input: ParseStream<'_>) -> syn::Result<Vec<Path>> {
    let list = input.parse_terminated(Path::parse, Token![,])?;
    Ok(list.into_iter().collect())
}

impl Parse for Step {
    fn parse(input: ParseStream<'_>) -> syn::Result<Self> {
        input.parse::<Token![@]>()?;
        let kind: Ident = input.parse()?;
        let body;
        braced!(body in input);
        let mut owner = Owner {
            kind,
            name: Ident::new("_", Span::call_site()),
            krate: TokenStream::new(),
            entities: Vec::new(),
            overlaps: Vec::new(),
            schema: None,
            migrations: None,
        };
        while !body.is_empty() {
            let kw: Ident = body.parse()?;
            let content;
            parenthesized!(content in body);
            match kw.to_string().as_str() {
                "name" => owner.name = content.parse()?,
                "krate" => owner.krate = content.parse()?,
                "entities" => owner.entities = paths(&content)?,
                "schema" => owner.schema = Some(content.parse()?),
                "migrations" => owner.migrations = Some(content.parse()?),
                "overlap" => {
                    let a: Path = content.parse()?;
                    content.parse::<Token![,]>()?;
                    let b: Path = content.parse()?;
                    owner.overlaps.push((a, b));
                }
                _ => return Err(syn::Error::new(kw.span(), "unknown table fact")),
            }
        }
        let rest;
        bracketed!(rest in input);
        let rest = paths(&rest)?;
        let mut metas = Vec::new();
        while !input.is_empty() {
            metas.push(input.parse()?);
        }
        Ok(Step { owner, rest, metas })
    }
}
