//! What the schema snapshot records of a value's stored form beyond its
//! type's name: a unit enum's stored names and a nested struct's members,
//! the facts whose change makes stored items unreadable.

use dynakey_core::snapshot::{Below, What};

use super::Attr;

/// The lines a field's type adds to the schema snapshot below the field's
/// own line, built by [`Attr`]'s hidden `__shape` (the `DynamoValue`
/// derive writes it; other types add nothing), in the snapshot's model
/// ([`Below`]), which writes them as
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
/// use dynakey_runtime::schema::format::What;
/// use dynakey_runtime::codec::Shape;
/// let values: Vec<What> = Shape::of::<Option<Genre>>().into_iter().map(|b| b.what).collect();
/// assert_eq!(values, [What::Value("kids".into()), What::Value("Adult".into())]);
/// ```
#[derive(Debug, Default)]
pub struct Shape {
    /// The lines of the member being built (the field's at the bottom).
    levels: Vec<Vec<Below>>,
    open: Vec<&'static str>,
}

impl Shape {
    /// The lines of `T`, as below a field of an entity.
    pub fn of<T: Attr>() -> Vec<Below> {
        let mut s = Shape {
            levels: vec![Vec::new()],
            open: Vec::new(),
        };
        s.enter::<T>();
        s.levels.pop().unwrap_or_default()
    }

    /// No lines: a field whose type adds none (or stored in a form of its
    /// attributes', `ttl` or `serde`).
    #[doc(hidden)]
    pub fn none() -> Vec<Below> {
        Vec::new()
    }

    fn push(&mut self, line: Below) {
        if let Some(level) = self.levels.last_mut() {
            level.push(line);
        }
    }

    fn enter<T: Attr>(&mut self) {
        let name = std::any::type_name::<T>();
        if self.open.contains(&name) {
            // A recursive type: its shape is written above already.
            self.push(Below::new(What::Recursive, Vec::new()));
            return;
        }
        self.open.push(name);
        T::__shape(self);
        self.open.pop();
    }

    /// A stored name of a unit enum's variant.
    #[doc(hidden)]
    pub fn value(&mut self, stored: &str) {
        self.push(Below::new(What::Value(stored.to_owned()), Vec::new()));
    }

    /// A member of a nested struct: its Rust name, attribute and type, and
    /// below it what its type adds.
    #[doc(hidden)]
    pub fn member<T: Attr>(&mut self, name: &str, attr: &str, ty: &str, optional: bool) {
        self.levels.push(Vec::new());
        self.enter::<T>();
        let under = self.levels.pop().unwrap_or_default();
        let what = What::Member {
            name: name.to_owned(),
            attr: attr.to_owned(),
            ty: ty.to_owned(),
            optional,
        };
        self.push(Below::new(what, under));
    }
}
