//! The item a derived `to_item` fills: every attribute name an entity's
//! items can hold, hashed once per process, cloned per item.

use std::sync::OnceLock;

use aws_sdk_dynamodb::types::AttributeValue;

use super::Item;

/// Every attribute name an entity's items can hold, in a map hashed once
/// per process. `to_item` clones it (a clone copies the table as it is: no
/// name is hashed again, and each name is one allocation of its own
/// length) and then puts each value in its slot.
pub struct ItemTemplate {
    item: Item,
    /// For each entry of `item` in iteration order, its index in `names`.
    order: Vec<usize>,
    /// Whether a clone of `item` visits its entries in `item`'s order
    /// (hashbrown's clone copies each entry to the same bucket; checked
    /// once when the template is made, so `fill` need not compare names).
    cloned_in_order: bool,
}

impl ItemTemplate {
    fn new(names: &[&'static str]) -> Self {
        let mut item = Item::with_capacity(names.len());
        for name in names {
            item.insert((*name).to_owned(), AttributeValue::Null(true));
        }
        let order = item
            .keys()
            .map(|k| names.iter().position(|n| n == k).unwrap_or(usize::MAX))
            .collect();
        let cloned_in_order = item.clone().keys().eq(item.keys());
        ItemTemplate {
            item,
            order,
            cloned_in_order,
        }
    }

    /// The item: the template of `names` (made on first use) with slot
    /// `names[i]` given `values[i]`, slots whose value is `None` left out.
    pub fn fill(
        cell: &'static OnceLock<ItemTemplate>,
        names: &[&'static str],
        values: &mut [Option<AttributeValue>],
    ) -> Item {
        let t = cell.get_or_init(|| Self::new(names));
        let mut item = t.item.clone();
        if !t.cloned_in_order {
            return Self::fill_by_name(item, names, values);
        }
        // Entries left without a value, by position: a bit each for the
        // first 128, a list beyond (allocated only for such an entity).
        let mut gone: u128 = 0;
        let mut beyond: Vec<usize> = Vec::new();
        for (k, (slot, &i)) in item.values_mut().zip(&t.order).enumerate() {
            match values.get_mut(i).and_then(Option::take) {
                Some(v) => *slot = v,
                None if k < 128 => gone |= 1 << k,
                None => beyond.push(k),
            }
        }
        if gone != 0 || !beyond.is_empty() {
            let mut k = 0;
            item.retain(|_, _| {
                let left_out = if k < 128 {
                    gone & (1 << k) != 0
                } else {
                    beyond.contains(&k)
                };
                k += 1;
                !left_out
            });
        }
        item
    }

    /// `fill` when a clone's order is not the template's: every slot looked
    /// up by its name.
    fn fill_by_name(
        mut item: Item,
        names: &[&'static str],
        values: &mut [Option<AttributeValue>],
    ) -> Item {
        item.retain(|name, slot| {
            let i = names.iter().position(|n| n == name).unwrap_or(usize::MAX);
            match values.get_mut(i).and_then(Option::take) {
                Some(v) => {
                    *slot = v;
                    true
                }
                None => false,
            }
        });
        item
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_fills_any_number_of_slots_leaving_out_the_empty_ones() {
        // 300 names (beyond the 128 slots a bit mask tracks), every third
        // one without a value: each name keeps exactly its own value.
        static T: OnceLock<ItemTemplate> = OnceLock::new();
        let names: Vec<&'static str> = (0..300)
            .map(|i| &*Box::leak(format!("attr {i}").into_boxed_str()))
            .collect();
        for round in 0..3 {
            let mut values: Vec<Option<AttributeValue>> = (0..300)
                .map(|i| (i % 3 != round).then(|| AttributeValue::N(i.to_string())))
                .collect();
            let item = ItemTemplate::fill(&T, &names, &mut values);
            assert_eq!(item.len(), 200);
            for (i, name) in names.iter().enumerate() {
                match item.get(*name) {
                    Some(AttributeValue::N(n)) => assert_eq!(n, &i.to_string()),
                    None => assert_eq!(i % 3, round),
                    other => panic!("{name}: {other:?}"),
                }
            }
        }
    }
}
