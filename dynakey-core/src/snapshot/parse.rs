//! The snapshot's facts from its text, in any version up to [`VERSION`].

use super::text::tokens;
use super::{
    Below, Entity, Field, Form, Index, IndexKeys, Key, Snapshot, Vector, What, MAGIC, VERSION,
};

/// Parses a snapshot of any version up to [`VERSION`]; an error names the
/// line. A text without a version line is version 1, whose facts it does
/// not hold are `None` (a field's form and the lines below it); before
/// version 3 an entity's vector indexes are `None` too; a version above
/// [`VERSION`] (a newer dynakey's) is an error that says so.
///
/// ```
/// use dynakey_core::snapshot::parse;
/// let err = parse("dynakey-schema 9\ntable T\n").unwrap_err();
/// assert!(err.contains("format 9") && err.contains("newer dynakey"), "{err}");
/// ```
pub fn parse(text: &str) -> Result<Snapshot, String> {
    let first = text.lines().next().unwrap_or_default();
    let version = match first.strip_prefix(MAGIC) {
        Some(v) => match v.trim().parse::<u32>() {
            Ok(v @ 2..=VERSION) => v,
            Ok(v) if v > VERSION => {
                let why = crate::format::newer(v, VERSION).unwrap_or_default();
                return Err(format!(
                    "line 1: the snapshot is in {why}: upgrade dynakey, or rewrite the \
                     snapshot with this one"
                ));
            }
            _ => {
                return Err(format!(
                    "line 1: not a snapshot format's version: {first:?}"
                ))
            }
        },
        None => 1,
    };
    let mut s = Snapshot {
        version,
        table: String::new(),
        entities: Vec::new(),
    };
    // Entities as read: their keys may come in any order of lines, and
    // each must have a discriminator and a partition key in the end.
    let mut open: Vec<Open> = Vec::new();
    let skip = usize::from(version >= 2);
    for (n, line) in text.lines().enumerate().skip(skip) {
        let err = |m: &str| format!("line {}: {m}: {line:?}", n + 1);
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let t = tokens(trimmed).map_err(|m| err(&m))?;
        let w: Vec<&str> = t.iter().map(|t| t.text.as_str()).collect();
        let indent = line.len() - line.trim_start().len();
        match (w.as_slice(), open.last_mut()) {
            (["table", name], _) => s.table = (*name).to_owned(),
            (["entity", name], _) => open.push(Open::new(name, version)),
            // Names and keywords told apart by quotes: see `Vector`.
            (["vector", ..], Some(e)) => {
                e.e.vectors
                    .get_or_insert_with(Vec::new)
                    .push(Vector::parse(&t[1..]).map_err(err)?)
            }
            (w, Some(e)) => e.line(version, w, indent, n + 1).map_err(err)?,
            (_, None) => return Err(err("not a line of a dynakey schema snapshot")),
        }
    }
    for e in open {
        s.entities.push(e.close()?);
    }
    Ok(s)
}

/// An entity being read.
struct Open {
    e: Entity,
    has_pk: bool,
    /// The members above the line being read, by indentation (a line
    /// below a field goes under the last member less indented than it).
    members: Vec<usize>,
}

impl Open {
    fn new(name: &str, version: u32) -> Self {
        let blank = Key {
            attr: String::new(),
            template: String::new(),
        };
        Open {
            e: Entity {
                type_name: name.to_owned(),
                discriminator: String::new(),
                discriminator_attr: String::new(),
                pk: blank,
                sk: None,
                indexes: Vec::new(),
                vectors: (version >= 3).then(Vec::new),
                fields: Vec::new(),
            },
            has_pk: false,
            members: Vec::new(),
        }
    }

    fn close(self) -> Result<Entity, String> {
        if !self.has_pk || self.e.discriminator.is_empty() {
            return Err(format!(
                "entity {} has no discriminator or partition key",
                self.e.type_name
            ));
        }
        Ok(self.e)
    }

    fn line(
        &mut self,
        version: u32,
        w: &[&str],
        indent: usize,
        n: usize,
    ) -> Result<(), &'static str> {
        let e = &mut self.e;
        let key = |attr: &str, tpl: &str| Key {
            attr: attr.to_owned(),
            template: tpl.to_owned(),
        };
        match w {
            ["discriminator", d, "in", a] => {
                e.discriminator = (*d).to_owned();
                e.discriminator_attr = (*a).to_owned();
            }
            // Indented keys belong to the index above them.
            ["key", attr, tpl] if indent > 2 => match e.indexes.last_mut() {
                Some(Index {
                    global,
                    keys: IndexKeys::Template { pk, sk },
                    ..
                }) => match pk {
                    None if *global => *pk = Some(key(attr, tpl)),
                    _ => *sk = Some(key(attr, tpl)),
                },
                _ => return Err("a key of no template index"),
            },
            ["key", attr, tpl] if !self.has_pk => {
                e.pk = key(attr, tpl);
                self.has_pk = true;
            }
            ["key", attr, tpl] => e.sk = Some(key(attr, tpl)),
            ["index", name, kind @ ("global" | "local"), flags @ ..] => {
                let (mut native, mut sparse) = (false, false);
                for f in flags {
                    match *f {
                        "native" => native = true,
                        "sparse" => sparse = true,
                        _ => return Err("an index word that is neither `native` nor `sparse`"),
                    }
                }
                e.indexes.push(Index {
                    name: (*name).to_owned(),
                    global: *kind == "global",
                    sparse,
                    keys: if native {
                        IndexKeys::Native {
                            pk: Vec::new(),
                            sk: Vec::new(),
                        }
                    } else {
                        IndexKeys::Template { pk: None, sk: None }
                    },
                });
            }
            ["native", which @ ("pk" | "sk"), fields @ ..] => match e.indexes.last_mut() {
                Some(Index {
                    keys: IndexKeys::Native { pk, sk },
                    ..
                }) => {
                    let to = if *which == "pk" { pk } else { sk };
                    *to = fields.iter().map(|f| (*f).to_owned()).collect();
                }
                _ => return Err("a native key of no native index"),
            },
            ["field", name, attr, ty, flags @ ..] => {
                self.members.clear();
                e.fields.push(field(version, name, attr, ty, flags)?);
            }
            ["value" | "member" | "recursive", ..] => {
                let field = e.fields.last_mut().ok_or("a line below no field")?;
                self.members.retain(|i| *i < indent);
                let b = Below {
                    what: what(w)?,
                    under: Vec::new(),
                    line: n,
                };
                let mut list = field.shape.get_or_insert_with(Vec::new);
                for _ in 0..self.members.len() {
                    list = &mut list.last_mut().ok_or("a line below no member")?.under;
                }
                if matches!(b.what, What::Member { .. }) {
                    self.members.push(indent);
                }
                list.push(b);
            }
            _ => return Err("not a line of a dynakey schema snapshot"),
        }
        Ok(())
    }
}

/// A field's line after `field`: `name "attr" Type [optional] [default]
/// [ttl|serde]`. Version 1 did not record the form or the lines below:
/// what the line lacks there is unknown.
fn field(
    version: u32,
    name: &str,
    attr: &str,
    ty: &str,
    flags: &[&str],
) -> Result<Field, &'static str> {
    let mut f = Field {
        name: name.to_owned(),
        attr: attr.to_owned(),
        ty: ty.to_owned(),
        optional: false,
        default: false,
        form: (version >= 2).then_some(Form::Own),
        shape: (version >= 2).then(Vec::new),
    };
    for w in flags {
        match *w {
            "optional" => f.optional = true,
            "default" => f.default = true,
            w => f.form = Some(Form::from_word(w).ok_or("an unknown word on a field's line")?),
        }
    }
    Ok(f)
}

fn what(w: &[&str]) -> Result<What, &'static str> {
    Ok(match w {
        ["value", v] => What::Value((*v).to_owned()),
        ["member", name, attr, ty, rest @ ..] => What::Member {
            name: (*name).to_owned(),
            attr: (*attr).to_owned(),
            ty: (*ty).to_owned(),
            optional: match rest {
                [] => false,
                ["optional"] => true,
                _ => return Err("an unknown word on a member's line"),
            },
        },
        ["recursive"] => What::Recursive,
        _ => return Err("not a line a field's type adds"),
    })
}
