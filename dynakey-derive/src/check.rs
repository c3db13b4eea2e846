//! Builds the checked model from the raw attributes, reporting every
//! mistake with its DYNA code (see the catalogue in DESIGN.md).

use std::collections::HashMap;
use std::ops::Range;

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields};

use crate::attr::{self, IndexKind, RawContainer, TemplateLit};
use crate::ctxt::Ctxt;
use crate::model::{Entity, Field, IndexModel, KeyKind, KeyModel, KeyRole, Part};
use crate::render::{did_you_mean, Diag};
use crate::template::{scan, Format, Segment};
use crate::types::{self, TypeKind};

const MAX_GSI: usize = 20;
const MAX_LSI: usize = 5;

fn diag(
    cx: &Ctxt,
    tpl: &TemplateLit,
    code: &'static str,
    message: String,
    range: Range<usize>,
    help: Option<String>,
) {
    let d = Diag {
        code,
        message,
        label: &tpl.label,
        template: &tpl.text,
        range,
        help,
    };
    cx.error(tpl.span, d.render());
}

/// The named fields of a struct, or a DYNA109 error.
pub fn named_fields<'a>(
    cx: &Ctxt,
    input: &'a DeriveInput,
    what: &str,
) -> Option<&'a syn::FieldsNamed> {
    match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(f) => Some(f),
            _ => {
                cx.error(
                    input.ident.span(),
                    format!("DYNA109: {what} needs a struct with named fields\n  = help: name the fields: `struct {} {{ id: String, .. }}`", input.ident),
                );
                None
            }
        },
        _ => {
            cx.error(
                input.ident.span(),
                format!("DYNA109: {what} needs a struct with named fields; `{}` is not one\n  = help: for a type stored inside an item, derive DynamoValue", input.ident),
            );
            None
        }
    }
}

pub fn fields(cx: &Ctxt, named: &syn::FieldsNamed) -> Vec<Field> {
    let mut out = Vec::new();
    for f in &named.named {
        let raw = attr::field(cx, &f.attrs);
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let (inner, optional) = match types::option_inner(&f.ty) {
            Some(t) => (t.clone(), true),
            None => (f.ty.clone(), false),
        };
        let kind = types::kind(&inner);
        let name = ident.to_string();
        let name = name.strip_prefix("r#").unwrap_or(&name).to_owned();
        if raw.skip && (raw.serde || raw.ttl || raw.omit_empty || raw.rename.is_some()) {
            cx.error(f.span(), format!("DYNA112: field `{name}` is #[dynamo(skip)] and has other options\n  = help: a skipped field is not stored; drop the other options"));
        }
        if raw.ttl && kind != TypeKind::DateTime {
            cx.error(f.ty.span(), format!("DYNA112: #[dynamo(ttl)] on `{name}` takes a time::OffsetDateTime or Option<time::OffsetDateTime>\n  = help: the TTL attribute is stored as epoch seconds"));
        }
        if raw.version
            && (kind != TypeKind::Int || raw.serde || raw.ttl || raw.skip || raw.omit_empty)
        {
            cx.error(f.ty.span(), format!("DYNA112: #[dynamo(version)] on `{name}` takes a plain integer field (u64 is usual)\n  = help: the version starts at 0 for a new item and grows by one with every put or update"));
        }
        if raw.ttl && raw.serde {
            cx.error(
                f.span(),
                format!(
                    "DYNA112: field `{name}` cannot be both #[dynamo(ttl)] and #[dynamo(serde)]"
                ),
            );
        }
        out.push(Field {
            attr: raw.rename.clone().unwrap_or_else(|| name.clone()),
            ident,
            ty: f.ty.clone(),
            inner,
            optional,
            kind,
            omit_empty: raw.omit_empty,
            skip: raw.skip,
            serde: raw.serde,
            ttl: raw.ttl,
            version: raw.version,
            span: f.span(),
        });
    }
    out
}

pub fn entity(cx: &Ctxt, input: &DeriveInput) -> Option<Entity> {
    let raw = attr::container(cx, &input.attrs);
    if !input.generics.params.is_empty() {
        cx.error(
            input.generics.span(),
            format!("DYNA109: entity `{}` has generic parameters, which DynamoEntity does not support\n  = help: derive on a concrete struct", input.ident),
        );
    }
    let named = named_fields(cx, input, "DynamoEntity")?;
    let fields = fields(cx, named);
    let ident = input.ident.clone();

    let discriminator = match &raw.entity {
        Some((d, span)) => {
            if d.is_empty() {
                cx.error(*span, "DYNA109: the discriminator is empty\n  = help: name the entity, as in #[dynamo(entity = \"EMPLOYEE\")]");
            }
            d.clone()
        }
        None => {
            cx.error(
                ident.span(),
                format!(
                    "DYNA109: entity `{ident}` has no discriminator\n  = help: add #[dynamo(entity = \"{}\")]: it tells the types of one table apart",
                    ident.to_string().to_uppercase()
                ),
            );
            String::new()
        }
    };
    let attr_of = |v: &Option<(String, Span)>, d: &str| {
        v.as_ref()
            .map(|(s, _)| s.clone())
            .unwrap_or_else(|| d.to_owned())
    };
    let disc_attr = attr_of(&raw.discriminator_attr, "_type");
    let pk_attr = attr_of(&raw.pk_attr, "pk");
    let sk_attr = attr_of(&raw.sk_attr, "sk");

    let Some(pk_tpl) = raw.pk.clone() else {
        cx.error(
            ident.span(),
            format!("DYNA109: entity `{ident}` has no partition key\n  = help: add a template, as in #[pk(\"USER#<user_id>\")]"),
        );
        return None;
    };
    let ctx = KeyCtx {
        cx,
        fields: &fields,
        ident: &ident,
    };
    let pk = ctx.key(
        &pk_tpl,
        false,
        KeyKind::Table,
        pk_attr.clone(),
        "pk".into(),
        None,
    );
    let sk = raw
        .sk
        .as_ref()
        .and_then(|t| ctx.key(t, true, KeyKind::Table, sk_attr.clone(), "sk".into(), None));
    if let Some(pk) = &pk {
        ctx.no_optional(&pk_tpl, pk, "the table key");
    }
    if let (Some(sk), Some(t)) = (&sk, &raw.sk) {
        ctx.no_optional(t, sk, "the table key");
    }
    let indexes = indexes(&ctx, &raw, pk.as_ref(), sk.is_some());
    check_attrs(
        cx,
        &raw,
        &fields,
        &disc_attr,
        &pk_attr,
        sk.as_ref().map(|_| sk_attr.as_str()),
        &indexes,
    );

    let ttl_attr = fields.iter().find(|f| f.ttl).map(|f| f.attr.clone());
    if fields.iter().filter(|f| f.version).count() > 1 {
        cx.error(ident.span(), "DYNA112: more than one #[dynamo(version)] field\n  = help: an entity has one version attribute");
    }
    if fields.iter().filter(|f| f.ttl).count() > 1 {
        cx.error(
            ident.span(),
            "DYNA112: more than one #[dynamo(ttl)] field\n  = help: a table has one TTL attribute",
        );
    }
    if cx.has_errors() {
        return None;
    }
    Some(Entity {
        ident,
        discriminator,
        disc_attr,
        pk: pk?,
        sk,
        indexes,
        fields,
        ttl_attr,
    })
}

struct KeyCtx<'a> {
    cx: &'a Ctxt,
    fields: &'a [Field],
    ident: &'a syn::Ident,
}

impl KeyCtx<'_> {
    /// Scans and checks one template; `None` if it has errors.
    fn key(
        &self,
        tpl: &TemplateLit,
        is_sort: bool,
        kind: KeyKind,
        attr: String,
        fn_name: String,
        index: Option<String>,
    ) -> Option<KeyModel> {
        let cx = self.cx;
        let (segments, syntax) = scan(&tpl.text);
        let mut ok = syntax.is_empty();
        for e in syntax {
            diag(
                cx,
                tpl,
                "DYNA100",
                format!("{} in template", e.message),
                e.range,
                e.help,
            );
        }
        // Byte ranges of every segment, for carets.
        let mut ranges = Vec::with_capacity(segments.len());
        let mut pos = 0;
        for s in &segments {
            let r = match s {
                Segment::Lit(l) => pos..pos + l.len(),
                Segment::Field(p) => p.range.clone(),
            };
            pos = r.end;
            ranges.push(r);
        }
        let mut parts = Vec::new();
        let mut prev_field: Option<&str> = None;
        for (i, seg) in segments.iter().enumerate() {
            match seg {
                Segment::Lit(l) => {
                    prev_field = None;
                    parts.push(Part::Lit(l.clone()));
                }
                Segment::Field(p) => {
                    if let Some(prev) = prev_field {
                        diag(
                            cx,
                            tpl,
                            "DYNA105",
                            format!("`<{prev}>` and `<{}>` have no literal between them, so the key cannot be parsed back", p.name),
                            p.range.clone(),
                            Some(format!("put a delimiter between them, as in `<{prev}>#<{}>`", p.name)),
                        );
                        ok = false;
                    }
                    prev_field = Some(&p.name);
                    if !p.valid {
                        continue;
                    }
                    let Some(idx) = self.fields.iter().position(|f| f.ident == p.name.as_str())
                    else {
                        let names = self
                            .fields
                            .iter()
                            .filter(|f| !f.skip)
                            .map(|f| f.ident.to_string())
                            .collect::<Vec<_>>();
                        let help = match did_you_mean(&p.name, names.iter().map(String::as_str)) {
                            Some(s) => format!("did you mean `{s}`?"),
                            None => format!(
                                "the fields are {}",
                                names
                                    .iter()
                                    .map(|n| format!("`{n}`"))
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        };
                        diag(
                            cx,
                            tpl,
                            "DYNA101",
                            format!("`<{}>` names no field of `{}`", p.name, self.ident),
                            p.range.clone(),
                            Some(help),
                        );
                        ok = false;
                        continue;
                    };
                    let f = &self.fields[idx];
                    if f.skip || f.serde || f.ttl || f.version {
                        let why = if f.skip {
                            "skip"
                        } else if f.serde {
                            "serde"
                        } else if f.ttl {
                            "ttl"
                        } else {
                            "version"
                        };
                        diag(
                            cx,
                            tpl,
                            "DYNA102",
                            format!("`{}` is #[dynamo({why})] and cannot be part of a key", p.name),
                            p.range.clone(),
                            Some("a key part is stored in the key attribute; drop the option or the placeholder".into()),
                        );
                        ok = false;
                    }
                    ok &= self.check_format(
                        tpl,
                        p.format,
                        f,
                        &p.name,
                        p.format_range.clone().unwrap_or(p.range.clone()),
                        p.range.clone(),
                        is_sort,
                    );
                    if p.format == Format::Path && i + 1 < segments.len() {
                        diag(
                            cx,
                            tpl,
                            "DYNA105",
                            format!("`<{}:path>` is followed by more of the template, so the key cannot be parsed back: a path may hold any text", p.name),
                            p.range.clone(),
                            Some("end the template with the `path` field, or drop `:path` so the value is escaped".into()),
                        );
                        ok = false;
                    }
                    parts.push(Part::Field {
                        field: idx,
                        format: p.format,
                    });
                }
            }
        }
        ok &= self.check_delimiters(tpl, &segments, &ranges);
        ok.then(|| KeyModel {
            attr,
            template: tpl.text.clone(),
            parts,
            fn_name,
            kind,
            role: if is_sort {
                KeyRole::Sort
            } else {
                KeyRole::Partition
            },
            index,
        })
    }

    /// DYNA103, DYNA104, DYNA107: the format against the field's type, as far
    /// as the syntax tells; the generated trait bounds catch the rest.
    #[allow(clippy::too_many_arguments)]
    fn check_format(
        &self,
        tpl: &TemplateLit,
        format: Format,
        f: &Field,
        name: &str,
        frange: Range<usize>,
        prange: Range<usize>,
        is_sort: bool,
    ) -> bool {
        let cx = self.cx;
        let k = f.kind;
        let numeric_help = |k: TypeKind| {
            match k {
            TypeKind::Int => format!("write `<{name}:d6>` for a value that is never negative, or `<{name}:n6>` for a signed one"),
            _ => format!("write `<{name}:n8.2>`: a sign, 8 integer digits and 2 decimal places"),
        }
        };
        match format {
            Format::Path if !matches!(k, TypeKind::String | TypeKind::Other) => {
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `path` keeps text as it is, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some(format!("drop the format: `<{name}>`")),
                );
                false
            }
            Format::Text if is_sort && k.is_number() => {
                diag(
                    cx,
                    tpl,
                    "DYNA103",
                    format!("`<{name}>` is a number in a sort key without a fixed width: `10` would sort before `2`"),
                    prange,
                    Some(numeric_help(k)),
                );
                false
            }
            Format::Padded(w) if matches!(k, TypeKind::Float | TypeKind::Decimal) => {
                diag(
                    cx,
                    tpl,
                    "DYNA104",
                    format!(
                        "`d{w}` zero-pads integers, but `{name}` is a {}",
                        if k == TypeKind::Float {
                            "float"
                        } else {
                            "decimal"
                        }
                    ),
                    frange,
                    Some(format!(
                        "use a signed decimal format, as in `<{name}:n{w}.2>`"
                    )),
                );
                false
            }
            Format::Padded(w) | Format::Signed(w)
                if !matches!(
                    k,
                    TypeKind::Int | TypeKind::Other | TypeKind::Float | TypeKind::Decimal
                ) =>
            {
                let fmt = if matches!(format, Format::Padded(_)) {
                    format!("d{w}")
                } else {
                    format!("n{w}")
                };
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!("format `{fmt}` does not fit `{name}`: it writes integers, and `{name}` is {}", describe(k)),
                    frange,
                    Some(format!("drop the format: `<{name}>`")),
                );
                false
            }
            Format::Signed(w) if matches!(k, TypeKind::Float | TypeKind::Decimal) => {
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `n{w}` writes integers, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some(format!("give it decimal places: `<{name}:n{w}.2>`")),
                );
                false
            }
            Format::Decimal(w, p)
                if !matches!(k, TypeKind::Float | TypeKind::Decimal | TypeKind::Other) =>
            {
                let help = if k == TypeKind::Int {
                    format!("an integer takes `<{name}:n{w}>`")
                } else {
                    format!("drop the format: `<{name}>`")
                };
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `n{w}.{p}` writes decimals, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some(help),
                );
                false
            }
            Format::Reverse
                if !matches!(k, TypeKind::DateTime | TypeKind::Int | TypeKind::Other) =>
            {
                diag(
                    cx,
                    tpl,
                    "DYNA107",
                    format!(
                        "format `rev` reverses instants, and `{name}` is {}",
                        describe(k)
                    ),
                    frange,
                    Some("use `rev` on a time::OffsetDateTime (or epoch milliseconds)".into()),
                );
                false
            }
            _ => true,
        }
    }

    /// Whether the text of `<name:format>` varies in width (and so is
    /// escaped and ended by its delimiter). Types the derive cannot classify
    /// count as varying: the stricter rule.
    fn varies(&self, name: &str, format: Format) -> bool {
        let kind = self
            .fields
            .iter()
            .find(|f| f.ident == name)
            .map_or(TypeKind::Other, |f| f.kind);
        !format.fixed_width()
            && !matches!(kind, TypeKind::Uuid | TypeKind::Date | TypeKind::DateTime)
    }

    /// DYNA115 and the literal rules. The literal after a field of varying
    /// width starts with its delimiter, which must sort below digits and
    /// letters (`#`, `-`, `.`, `/`, `!`, a space…): escaping then keeps
    /// every character of a value above it, so keys sort as their values.
    /// After a fixed-width field any character may follow. Literals hold
    /// no control characters and no U+10FFFF.
    fn check_delimiters(
        &self,
        tpl: &TemplateLit,
        segments: &[Segment],
        ranges: &[Range<usize>],
    ) -> bool {
        let mut ok = true;
        let mut delims = Vec::new();
        for (i, s) in segments.iter().enumerate() {
            if let (Segment::Field(p), Some(Segment::Lit(l))) = (s, segments.get(i + 1)) {
                if !self.varies(&p.name, p.format) {
                    continue;
                }
                if let Some(d) = l.chars().next() {
                    delims.push((d, ranges[i + 1].start, p.name.clone()));
                }
            }
        }
        for (d, at, name) in &delims {
            if *d >= '0' {
                diag(
                    self.cx,
                    tpl,
                    "DYNA115",
                    format!("the delimiter `{d}` after `<{name}>` sorts above digits, so values holding digits (or letters) sort out of the order of the fields"),
                    *at..*at + d.len_utf8(),
                    Some("start the literal after a text field with a character below `0`, such as `#`; any character may follow a fixed-width field (`d6`, `n4`, a date, a uuid)".into()),
                );
                ok = false;
            }
        }
        for (i, s) in segments.iter().enumerate() {
            if let Segment::Lit(l) = s {
                for (off, c) in l.char_indices() {
                    if c < ' ' || c == '\u{10FFFF}' {
                        let at = ranges[i].start + off;
                        diag(
                            self.cx,
                            tpl,
                            "DYNA100",
                            format!("the literal holds {c:?}, which a key cannot hold"),
                            at..at + c.len_utf8(),
                            Some("use printable characters in key literals".into()),
                        );
                        ok = false;
                    }
                }
            }
        }
        let Some(&(lowest, _, _)) = delims.iter().min_by_key(|(d, _, _)| *d) else {
            return ok;
        };
        for (i, s) in segments.iter().enumerate() {
            if let Segment::Lit(l) = s {
                for (off, c) in l.char_indices() {
                    if c >= ' ' && c < lowest {
                        let at = ranges[i].start + off;
                        diag(
                            self.cx,
                            tpl,
                            "DYNA115",
                            format!("the literal holds {c:?}, which sorts below the delimiter `{lowest}`, so keys sort out of the order of their fields"),
                            at..at + c.len_utf8(),
                            Some(format!("use only characters above `{lowest}` in literals, or a lower delimiter")),
                        );
                        ok = false;
                    }
                }
            }
        }
        ok
    }

    /// DYNA106: `Option` inputs are for sparse indexes only.
    fn no_optional(&self, tpl: &TemplateLit, key: &KeyModel, what: &str) {
        for part in &key.parts {
            if let Part::Field { field, .. } = part {
                let f = &self.fields[*field];
                if f.optional {
                    let name = f.ident.to_string();
                    let range = placeholder_range(&tpl.text, &name);
                    let help = if key.kind == KeyKind::Global {
                        "mark the index `sparse` so an item with no value stays out of it, or make the field required".to_owned()
                    } else {
                        format!("a table key needs every input: make `{name}` a plain (non-Option) field")
                    };
                    diag(
                        self.cx,
                        tpl,
                        "DYNA106",
                        format!("`{name}` is an Option, but {what} needs a value for every item"),
                        range,
                        Some(help),
                    );
                }
            }
        }
    }
}

fn placeholder_range(text: &str, name: &str) -> Range<usize> {
    let needle = format!("<{name}");
    match text.find(&needle) {
        Some(i) => i..i + text[i..].find('>').map(|j| j + 1).unwrap_or(needle.len()),
        None => 0..text.len(),
    }
}

fn describe(k: TypeKind) -> &'static str {
    match k {
        TypeKind::String => "a string",
        TypeKind::Uuid => "a uuid",
        TypeKind::Date => "a date",
        TypeKind::DateTime => "an instant",
        TypeKind::Bool => "a bool",
        TypeKind::Int => "an integer",
        TypeKind::Float => "a float",
        TypeKind::Decimal => "a decimal",
        TypeKind::Other => "of another type",
    }
}

fn snake(name: &str) -> String {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert(0, 'i');
    }
    s
}

fn indexes(
    ctx: &KeyCtx<'_>,
    raw: &RawContainer,
    table_pk: Option<&KeyModel>,
    has_sk: bool,
) -> Vec<IndexModel> {
    let cx = ctx.cx;
    let mut out = Vec::new();
    let mut seen: HashMap<String, Span> = HashMap::new();
    let (mut gsis, mut lsis) = (0, 0);
    for ix in &raw.indexes {
        let which = if ix.kind == IndexKind::Global {
            "gsi"
        } else {
            "lsi"
        };
        if ix.name.is_empty() {
            cx.error(
                ix.name_span,
                format!("DYNA109: #[{which}] has an empty index name"),
            );
            continue;
        }
        if seen.insert(ix.name.clone(), ix.name_span).is_some() {
            cx.error(
                ix.name_span,
                format!(
                    "DYNA108: index `{}` is declared twice\n  = help: give each index its own name",
                    ix.name
                ),
            );
            continue;
        }
        let sn = snake(&ix.name);
        let pk_attr = ix
            .pk_attr
            .as_ref()
            .map(|a| a.0.clone())
            .unwrap_or_else(|| format!("{sn}pk"));
        let sk_attr = ix
            .sk_attr
            .as_ref()
            .map(|a| a.0.clone())
            .unwrap_or_else(|| format!("{sn}sk"));
        let model = match ix.kind {
            IndexKind::Global => {
                gsis += 1;
                let Some(pk_tpl) = &ix.pk else {
                    cx.error(ix.name_span, format!("DYNA109: global index `{}` has no partition key\n  = help: add `pk = \"...\"`, as in #[gsi(\"{}\", pk = \"TEAM#<team>\")]", ix.name, ix.name));
                    continue;
                };
                let pk = ctx.key(
                    pk_tpl,
                    false,
                    KeyKind::Global,
                    pk_attr,
                    format!("{sn}_pk"),
                    Some(ix.name.clone()),
                );
                let sk = ix.sk.as_ref().map(|t| {
                    ctx.key(
                        t,
                        true,
                        KeyKind::Global,
                        sk_attr,
                        format!("{sn}_sk"),
                        Some(ix.name.clone()),
                    )
                });
                let (Some(pk), sk) = (pk, sk) else { continue };
                let sk = match sk {
                    Some(Some(s)) => Some(s),
                    Some(None) => continue,
                    None => None,
                };
                IndexModel {
                    name: ix.name.clone(),
                    kind: KeyKind::Global,
                    pk,
                    sk,
                    sparse: ix.sparse,
                    snake: sn,
                }
            }
            IndexKind::Local => {
                lsis += 1;
                if !has_sk {
                    cx.error(ix.name_span, format!("DYNA109: local index `{}` needs a table with a sort key\n  = help: add #[sk(\"...\")], or make it a global index", ix.name));
                    continue;
                }
                let Some(sk_tpl) = &ix.sk else {
                    cx.error(ix.name_span, format!("DYNA109: local index `{}` has no sort key\n  = help: add `sk = \"...\"`", ix.name));
                    continue;
                };
                let Some(table_pk) = table_pk else { continue };
                let Some(sk) = ctx.key(
                    sk_tpl,
                    true,
                    KeyKind::Local,
                    sk_attr,
                    format!("{sn}_sk"),
                    Some(ix.name.clone()),
                ) else {
                    continue;
                };
                let mut pk = table_pk.clone();
                pk.kind = KeyKind::Local;
                pk.fn_name = format!("{sn}_pk");
                pk.index = Some(ix.name.clone());
                IndexModel {
                    name: ix.name.clone(),
                    kind: KeyKind::Local,
                    pk,
                    sk: Some(sk),
                    sparse: ix.sparse,
                    snake: sn,
                }
            }
        };
        // DYNA106 on the index.
        let inputs: Vec<&Field> = model
            .pk
            .fields()
            .chain(model.sk.iter().flat_map(|k| k.fields()))
            .map(|i| &ctx.fields[i])
            .collect();
        if model.sparse {
            if !inputs.iter().any(|f| f.may_be_absent()) {
                let tpl = ix.sk.as_ref().or(ix.pk.as_ref());
                let msg = format!("DYNA106: index `{}` is sparse, but none of its inputs can be absent, so every item would be in it\n  = help: make an input an Option (or #[dynamo(omit_empty)] on a string), or drop `sparse`", ix.name);
                cx.error(tpl.map(|t| t.span).unwrap_or(ix.name_span), msg);
            }
        } else {
            let what = format!("index `{}` is not sparse and", ix.name);
            if model.kind == KeyKind::Global {
                if let Some(t) = &ix.pk {
                    ctx.no_optional(t, &model.pk, &what);
                }
            }
            if let (Some(t), Some(k)) = (&ix.sk, &model.sk) {
                ctx.no_optional(t, k, &what);
            }
        }
        out.push(model);
    }
    if gsis > MAX_GSI {
        cx.error(ctx.ident.span(), format!("DYNA111: `{}` declares {gsis} global indexes; DynamoDB allows {MAX_GSI} per table\n  = help: overload one index for several access patterns", ctx.ident));
    }
    if lsis > MAX_LSI {
        cx.error(
            ctx.ident.span(),
            format!(
                "DYNA111: `{}` declares {lsis} local indexes; DynamoDB allows {MAX_LSI} per table",
                ctx.ident
            ),
        );
    }
    out
}

/// DYNA108 (two keys on one attribute) and DYNA110 (a field named like a
/// key or discriminator attribute).
fn check_attrs(
    cx: &Ctxt,
    raw: &RawContainer,
    fields: &[Field],
    disc: &str,
    pk: &str,
    sk: Option<&str>,
    indexes: &[IndexModel],
) {
    let mut owners: Vec<(String, String)> =
        vec![(pk.to_owned(), "the table's partition key".into())];
    if let Some(sk) = sk {
        owners.push((sk.to_owned(), "the table's sort key".into()));
    }
    for ix in indexes {
        let span = raw
            .indexes
            .iter()
            .find(|r| r.name == ix.name)
            .map(|r| r.name_span)
            .unwrap_or_else(Span::call_site);
        let mut mine = Vec::new();
        if ix.kind == KeyKind::Global {
            mine.push((
                ix.pk.attr.clone(),
                format!("the partition key of index `{}`", ix.name),
            ));
        }
        if let Some(s) = &ix.sk {
            mine.push((
                s.attr.clone(),
                format!("the sort key of index `{}`", ix.name),
            ));
        }
        for (a, who) in mine {
            if let Some((_, other)) = owners.iter().find(|(o, _)| *o == a) {
                cx.error(span, format!("DYNA108: attribute `{a}` would hold {who} and {other}\n  = help: give the index its own attribute names with pk_attr = \"...\" / sk_attr = \"...\""));
            }
            owners.push((a, who));
        }
    }
    owners.push((disc.to_owned(), "the discriminator".into()));
    for f in fields.iter().filter(|f| !f.skip) {
        if let Some((_, who)) = owners.iter().find(|(o, _)| *o == f.attr) {
            cx.error(
                f.ident.span(),
                format!("DYNA110: field `{}` is stored as attribute `{}`, which holds {who}\n  = help: rename the attribute with #[dynamo(rename = \"...\")]", f.ident, f.attr),
            );
        }
    }
}
