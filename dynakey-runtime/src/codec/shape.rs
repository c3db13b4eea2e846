//! What the schema snapshot records of a value's stored form beyond its
//! type's name: a unit enum's stored names and a nested struct's members,
//! the facts whose change makes stored items unreadable.

use super::Attr;

/// The lines a field's type adds to the schema snapshot below the field's
/// own line, written by [`Attr`]'s hidden `__shape` (the `DynamoValue`
/// derive writes it; other types write nothing):
///
/// ```text
///   field genre "genre" Genre
///     value "kids"
///     value "adult"
///   field address "address" Option<Address> optional
///     member street "street" String
///     member zip "zip" String
/// ```
///
/// ```
/// # use dynakey_derive::DynamoValue;
/// # #[derive(DynamoValue)]
/// # #[dynamo(crate = "dynakey_runtime")]
/// # enum Genre { #[dynamo(rename = "kids")] Children, Adult }
/// use dynakey_runtime::codec::Shape;
/// assert_eq!(Shape::of::<Option<Genre>>(), "    value \"kids\"\n    value \"Adult\"\n");
/// ```
#[derive(Debug, Default)]
pub struct Shape {
    out: String,
    depth: usize,
    open: Vec<&'static str>,
}

impl Shape {
    /// The lines of `T`, indented as under a field of an entity.
    pub fn of<T: Attr>() -> String {
        let mut s = Shape {
            depth: 2,
            ..Shape::default()
        };
        s.enter::<T>();
        s.out
    }

    fn line(&mut self, text: std::fmt::Arguments<'_>) {
        use std::fmt::Write as _;
        let _ = writeln!(self.out, "{:w$}{text}", "", w = self.depth * 2);
    }

    fn enter<T: Attr>(&mut self) {
        let name = std::any::type_name::<T>();
        if self.open.contains(&name) {
            // A recursive type: its shape is written above already.
            self.line(format_args!("recursive"));
            return;
        }
        self.open.push(name);
        T::__shape(self);
        self.open.pop();
    }

    /// A stored name of a unit enum's variant.
    #[doc(hidden)]
    pub fn value(&mut self, stored: &str) {
        self.line(format_args!("value {}", quote(stored)));
    }

    /// A member of a nested struct: its Rust name, attribute and type, and
    /// below it what its type adds.
    #[doc(hidden)]
    pub fn member<T: Attr>(&mut self, name: &str, attr: &str, ty: &str, optional: bool) {
        let opt = if optional { " optional" } else { "" };
        self.line(format_args!("member {name} {} {ty}{opt}", quote(attr)));
        self.depth += 1;
        self.enter::<T>();
        self.depth -= 1;
    }
}

/// A name in double quotes, `"` and `\\` escaped: how the schema snapshot
/// writes attribute names, templates and stored values.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}
