//! Fixed-size arrays, stored as a list (L) of exactly their length: the
//! form of a vector index's embedding (`[f32; 768]`), whose length the type
//! holds, so an item read back with another number of elements is a decode
//! error that names the attribute, not a short or padded vector.

use aws_sdk_dynamodb::types::AttributeValue;

use super::impls::list_attr;
use super::{first_in_list, Attr, AttrPath, DecodeError, Unwritable};

/// A list (L) of exactly `N` elements.
///
/// ```
/// use dynakey_runtime::{Attr, AttrPath};
/// use aws_sdk_dynamodb::types::AttributeValue;
/// let v = [0.5f32, -1.0, 2.25];
/// let stored = v.to_attr().unwrap();
/// assert_eq!(stored.as_l().unwrap()[1], AttributeValue::N("-1".into()));
/// assert_eq!(<[f32; 3]>::from_attr(&stored, &AttrPath::root("v")).unwrap(), v);
/// // Another length does not read as this type.
/// let err = <[f32; 2]>::from_attr(&stored, &AttrPath::root("v")).unwrap_err();
/// assert_eq!((err.path.as_str(), err.expected.as_str()), ("v", "L (list) of 2 elements"));
/// ```
impl<T: Attr, const N: usize> Attr for [T; N] {
    fn __shape(shape: &mut super::Shape) {
        T::__shape(shape)
    }

    fn to_attr(&self) -> Option<AttributeValue> {
        Some(list_attr(self))
    }

    // An element the decoder could not read back (a date outside
    // 0000–9999) is refused as in a `Vec`.
    fn unwritable(&self) -> Option<Unwritable> {
        first_in_list(self)
    }

    fn from_attr(value: &AttributeValue, path: &AttrPath<'_>) -> Result<Self, DecodeError> {
        let expected = || format!("L (list) of {N} elements");
        match value {
            AttributeValue::L(list) if list.len() != N => Err(DecodeError::new(
                path,
                expected(),
                format!("a list of {} elements", list.len()),
            )),
            // Read as a list (each element's path named in its errors),
            // then made the array: the length was checked above.
            AttributeValue::L(_) => Vec::<T>::from_attr(value, path)?
                .try_into()
                .map_err(|_| DecodeError::new(path, expected(), "a list of another length")),
            other => Err(DecodeError::mismatch(path, &expected(), other)),
        }
    }
}
