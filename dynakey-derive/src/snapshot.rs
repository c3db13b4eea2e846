//! The schema snapshot file of a table (written by the runtime's
//! `schema::render`), parsed for the drift checks. One fact per line:
//! `entity`, `discriminator`, `key`, `index`, `field`; see the runtime's
//! `schema/snapshot.rs` for the format.

/// A key as recorded.
#[derive(Clone)]
pub struct SnapKey {
    pub attr: String,
    pub template: String,
}

pub struct SnapIndex {
    pub name: String,
    pub global: bool,
    pub pk: Option<SnapKey>,
    pub sk: Option<SnapKey>,
}

pub struct SnapField {
    pub name: String,
    pub attr: String,
    pub ty: String,
    /// `own`, `ttl` or `serde`, as `Field::form_word` says it.
    pub form: String,
}

pub struct SnapEntity {
    pub type_name: String,
    pub discriminator: String,
    pub discriminator_attr: String,
    pub pk: Option<SnapKey>,
    pub sk: Option<SnapKey>,
    pub indexes: Vec<SnapIndex>,
    pub fields: Vec<SnapField>,
}

/// The key text of a native key as the snapshot writes its line
/// (`native pk tenant region` is `pk(tenant, region)`).
pub fn native_text<S: AsRef<str>>(which: &str, fields: &[S]) -> String {
    let names: Vec<&str> = fields.iter().map(AsRef::as_ref).collect();
    format!("{which}({})", names.join(", "))
}

/// Splits a line into words; `"…"` is one word, with `\"` and `\\`.
pub fn words(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut w = String::new();
        if c == '"' {
            chars.next();
            loop {
                match chars.next() {
                    Some('\\') => w.push(chars.next().ok_or("a `\\` ends the line")?),
                    Some('"') => break,
                    Some(c) => w.push(c),
                    None => return Err("an unclosed `\"`".into()),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c.is_whitespace() {
                    break;
                }
                w.push(c);
                chars.next();
            }
        }
        out.push(w);
    }
    Ok(out)
}

/// Parses a snapshot; an error names the line.
pub fn parse(text: &str) -> Result<Vec<SnapEntity>, String> {
    let mut out: Vec<SnapEntity> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let err = |m: &str| format!("line {}: {m}: {line:?}", n + 1);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let w = words(trimmed).map_err(|m| err(&m))?;
        let w: Vec<&str> = w.iter().map(String::as_str).collect();
        let entity = out.last_mut();
        match (w.as_slice(), entity) {
            (["table", _], _) => {}
            (["entity", name], _) => out.push(SnapEntity {
                type_name: (*name).to_owned(),
                discriminator: String::new(),
                discriminator_attr: String::new(),
                pk: None,
                sk: None,
                indexes: Vec::new(),
                fields: Vec::new(),
            }),
            (["discriminator", d, "in", a], Some(e)) => {
                e.discriminator = (*d).to_owned();
                e.discriminator_attr = (*a).to_owned();
            }
            (["key", attr, tpl], Some(e)) => {
                let k = SnapKey {
                    attr: (*attr).to_owned(),
                    template: (*tpl).to_owned(),
                };
                // Indented keys belong to the index above them.
                let in_index = line.starts_with("    ");
                match (in_index, e.indexes.last_mut()) {
                    (true, Some(ix)) if ix.global && ix.pk.is_none() => ix.pk = Some(k),
                    (true, Some(ix)) => ix.sk = Some(k),
                    (false, _) if e.pk.is_none() => e.pk = Some(k),
                    (false, _) => e.sk = Some(k),
                    (true, None) => return Err(err("a key of no index")),
                }
            }
            // Sparseness, optionality and defaults are facts of the
            // snapshot that no drift check reads: `check_schema` compares
            // the whole text.
            (["index", name, kind, ..], Some(e)) => e.indexes.push(SnapIndex {
                name: (*name).to_owned(),
                global: *kind == "global",
                pk: None,
                sk: None,
            }),
            // A native index's keys: `native pk tenant region`.
            (["native", which @ ("pk" | "sk"), fields @ ..], Some(e)) => {
                let k = SnapKey {
                    attr: "native".into(),
                    template: native_text(which, fields),
                };
                match (*which, e.indexes.last_mut()) {
                    ("pk", Some(ix)) => ix.pk = Some(k),
                    (_, Some(ix)) => ix.sk = Some(k),
                    (_, None) => return Err(err("a native key of no index")),
                }
            }
            // After the type: `optional` and `default`, which no drift
            // check reads, and the stored form when the field's attributes
            // decide it (`ttl`, `serde`; none is the type's own).
            (["field", name, attr, ty, flags @ ..], Some(e)) => e.fields.push(SnapField {
                name: (*name).to_owned(),
                attr: (*attr).to_owned(),
                ty: (*ty).to_owned(),
                form: flags
                    .iter()
                    .find(|w| matches!(**w, "ttl" | "serde"))
                    .map_or("own", |w| *w)
                    .to_owned(),
            }),
            // What a field's type adds below its line (a unit enum's stored
            // names, a nested struct's members): the derive cannot see
            // another type's derive, so `check_schema` compares these.
            (["value" | "member" | "recursive", ..], Some(_)) => {}
            _ => return Err(err("not a line of a dynakey schema snapshot")),
        }
    }
    for e in &out {
        if e.pk.is_none() || e.discriminator.is_empty() {
            return Err(format!(
                "entity {} has no discriminator or partition key",
                e.type_name
            ));
        }
    }
    Ok(out)
}
