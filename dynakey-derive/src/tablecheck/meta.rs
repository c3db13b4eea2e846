//! What `table_step!` reads: the table's (or union's) own facts, written
//! by its derive, and each entity's metadata, written by the entity's
//! macro (see `gen::metadata`), in the order the entities are listed.

use proc_macro2::{Span, TokenStream};
use syn::parse::{Parse, ParseStream};
use syn::{braced, bracketed, parenthesized, Ident, LitStr, Path, Token};

/// A key as an entity recorded it: its attribute and template (the
/// template's literal has the span of the entity's attribute).
#[derive(Clone)]
pub struct MetaKey {
    pub attr: String,
    pub template: LitStr,
}

impl MetaKey {
    pub fn text(&self) -> String {
        self.template.value()
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
    pub name: LitStr,
    pub pk: MetaKey,
    pub sk: Option<MetaKey>,
}

pub struct MetaField {
    pub name: String,
    pub attr: String,
    pub ty: String,
    pub optional: bool,
    pub default: bool,
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
}

impl MetaEntity {
    pub fn name(&self) -> String {
        self.ident.to_string()
    }
}

fn key(input: ParseStream<'_>) -> syn::Result<MetaKey> {
    let kw: Ident = input.parse()?;
    if kw != "key" {
        return Err(syn::Error::new(kw.span(), "expected `key`"));
    }
    let attr: LitStr = input.parse()?;
    let template: LitStr = input.parse()?;
    Ok(MetaKey {
        attr: attr.value(),
        template,
    })
}

impl Parse for MetaEntity {
    fn parse(outer: ParseStream<'_>) -> syn::Result<Self> {
        let input;
        braced!(input in outer);
        let ident: Ident = input.parse()?;
        if input.peek(Ident) {
            let failed: Ident = input.parse()?;
            if failed == "failed" {
                let empty = MetaKey {
                    attr: String::new(),
                    template: LitStr::new("", Span::call_site()),
                };
                return Ok(MetaEntity {
                    ident,
                    failed: true,
                    disc: String::new(),
                    disc_attr: String::new(),
                    pk: empty,
                    sk: None,
                    indexes: Vec::new(),
                    fields: Vec::new(),
                });
            }
        }
        let disc: LitStr = input.parse()?;
        let disc_attr: LitStr = input.parse()?;
        let pk = key(&input)?;
        input.parse::<Token![;]>()?;
        let mut e = MetaEntity {
            ident,
            failed: false,
            disc: disc.value(),
            disc_attr: disc_attr.value(),
            pk,
            sk: None,
            indexes: Vec::new(),
            fields: Vec::new(),
        };
        while !input.is_empty() {
            let fork = input.fork();
            let kw: Ident = fork.parse()?;
            match kw.to_string().as_str() {
                "key" => {
                    e.sk = Some(key(&input)?);
                    input.parse::<Token![;]>()?;
                }
                "index" => {
                    input.parse::<Ident>()?;
                    let kind: Ident = input.parse()?;
                    let name: LitStr = input.parse()?;
                    // Sparseness and projection: no check across entities
                    // reads them.
                    let _sparse: Ident = input.parse()?;
                    let proj: Ident = input.parse()?;
                    if proj == "include" {
                        let content;
                        parenthesized!(content in input);
                        let _: TokenStream = content.parse()?;
                    }
                    let pk = key(&input)?;
                    let sk = if input.peek(Ident) {
                        Some(key(&input)?)
                    } else {
                        None
                    };
                    input.parse::<Token![;]>()?;
                    e.indexes.push(MetaIndex {
                        global: kind == "global",
                        name,
                        pk,
                        sk,
                    });
                }
                _ => {
                    input.parse::<Ident>()?;
                    let name: LitStr = input.parse()?;
                    let attr: LitStr = input.parse()?;
                    let ty: LitStr = input.parse()?;
                    let optional: Ident = input.parse()?;
                    let default: Ident = input.parse()?;
                    input.parse::<Token![;]>()?;
                    e.fields.push(MetaField {
                        name: name.value(),
                        attr: attr.value(),
                        ty: ty.value(),
                        optional: optional == "optional",
                        default: default == "default",
                    });
                }
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
