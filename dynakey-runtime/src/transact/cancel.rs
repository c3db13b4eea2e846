//! Cancellation reasons mapped to the actions of a transaction.

use aws_sdk_dynamodb::types::error::TransactionCanceledException;

use crate::error::{CancelReason, Error, ItemRef};

/// Maps the cancellation reasons to the actions' targets. Servers that
/// leave the reasons out of the body still name them in the message
/// (`… [None, ConditionalCheckFailed]`).
pub(super) fn canceled(c: &TransactionCanceledException, targets: &[ItemRef]) -> Error {
    let target = |i: usize| {
        targets
            .get(i)
            .cloned()
            .unwrap_or_else(|| ItemRef::new("", "", None::<String>))
    };
    let mut reasons: Vec<CancelReason> = c
        .cancellation_reasons()
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut reason = CancelReason::new(i, r.code().unwrap_or("None"), target(i));
            reason.message = r.message().map(str::to_owned);
            reason.item = r.item().filter(|m| !m.is_empty()).cloned();
            reason
        })
        .collect();
    if reasons.is_empty() {
        if let Some(codes) = c.message().and_then(codes_in_message) {
            reasons = codes
                .into_iter()
                .enumerate()
                .map(|(i, code)| CancelReason::new(i, code, target(i)))
                .collect();
        }
    }
    Error::TransactionCanceled { reasons }
}

/// The codes of a message ending in `[None, ConditionalCheckFailed]`.
fn codes_in_message(msg: &str) -> Option<Vec<&str>> {
    let (a, b) = (msg.rfind('[')?, msg.rfind(']')?);
    (a < b).then(|| msg[a + 1..b].split(',').map(str::trim).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_come_from_the_message_when_the_body_has_none() {
        let c = TransactionCanceledException::builder()
            .message("Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]")
            .build();
        let targets = [ItemRef::new("A", "a", None::<String>)];
        let Error::TransactionCanceled { reasons } = canceled(&c, &targets) else {
            panic!()
        };
        assert_eq!(reasons.len(), 2);
        assert_eq!(reasons[0].target.discriminator, "A");
        assert_eq!(reasons[1].code, "ConditionalCheckFailed");
        assert_eq!(reasons[1].target.discriminator, "");
    }
}
