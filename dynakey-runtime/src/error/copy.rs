//! Copies of the errors a builder keeps, so that every operation builder
//! is `Clone`: a builder holds the first error found while building (an
//! entity that does not encode, a key that does not format, a refused
//! value), and a clone of the builder must report the same error when sent.

use super::Error;

impl Error {
    /// A copy of this error. Every error a builder can hold (the refusals
    /// made before sending: `KeyFormat`, `Encode`, `Decode`, `Refused`,
    /// `Invalid`, `Unique`, `ItemTooLarge`, `ConsistentReadOnGlobalIndex`,
    /// `UnknownDiscriminator`, `Change`) copies exactly. The errors that
    /// only an answer from DynamoDB makes hold the SDK's error, which does
    /// not clone; their copy keeps the text as an [`Error::Backend`].
    pub(crate) fn duplicate(&self) -> Self {
        match self {
            Self::KeyFormat(e) => Self::KeyFormat(e.clone()),
            Self::Encode(e) => Self::Encode(e.clone()),
            Self::Decode(e) => Self::Decode(e.clone()),
            Self::Change(e) => Self::Change(e.clone()),
            Self::Refused { reason, message } => Self::Refused {
                reason: *reason,
                message: message.clone(),
            },
            Self::ItemTooLarge { size, key } => Self::ItemTooLarge {
                size: *size,
                key: key.clone(),
            },
            Self::ConsistentReadOnGlobalIndex => Self::ConsistentReadOnGlobalIndex,
            Self::UnknownDiscriminator { value, pk, sk } => Self::UnknownDiscriminator {
                value: value.clone(),
                pk: pk.clone(),
                sk: sk.clone(),
            },
            Self::Invalid {
                entity,
                field,
                message,
            } => Self::Invalid {
                entity,
                field: *field,
                message: message.clone(),
            },
            Self::Unique {
                entity,
                field,
                value,
            } => Self::Unique {
                entity,
                field,
                value: value.clone(),
            },
            other => Self::Backend {
                message: other.to_string(),
                source: None,
            },
        }
    }
}

/// A clone of what a builder has built: the value, or a copy of the error
/// found while building it.
pub(crate) fn clone_built<T: Clone>(built: &Result<T, Error>) -> Result<T, Error> {
    match built {
        Ok(v) => Ok(v.clone()),
        Err(e) => Err(e.duplicate()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::{EncodeError, KeyFormatError, KeyFormatReason, RefusedReason};

    #[test]
    fn build_errors_copy_exactly() {
        let errors = [
            Error::refused(
                RefusedReason::ActionCount,
                "a transaction takes 1 to 100 actions, not 0",
            ),
            Error::Encode(EncodeError::Serde {
                field: "blob",
                message: "bad".into(),
            }),
            Error::KeyFormat(KeyFormatError {
                discriminator: "NOTE",
                index: None,
                template: "USER#<user>",
                field: "user",
                value: String::new(),
                reason: KeyFormatReason::Empty,
            }),
            Error::Invalid {
                entity: "USER",
                field: Some("email"),
                message: "no @".into(),
            },
            Error::Unique {
                entity: "USER",
                field: "email",
                value: "a@b".into(),
            },
            Error::ItemTooLarge {
                size: 400_001,
                key: "pk=A".into(),
            },
            Error::ConsistentReadOnGlobalIndex,
        ];
        for e in errors {
            let copy = e.duplicate();
            assert_eq!(format!("{copy:?}"), format!("{e:?}"));
        }
        let r: Result<u8, Error> = Err(Error::refused(RefusedReason::Unsupported, "x"));
        assert_eq!(
            clone_built(&r).unwrap_err().to_string(),
            "refused before sending: x"
        );
        assert_eq!(clone_built(&Ok::<_, Error>(7u8)).unwrap(), 7);
    }

    #[test]
    fn answers_copy_as_text() {
        let e = Error::Sdk("connection reset".into());
        let copy = e.duplicate();
        assert!(matches!(&copy, Error::Backend { source: None, .. }));
        assert!(copy.to_string().contains("connection reset"));
    }
}
