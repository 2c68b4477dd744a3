//! [`SortedMap`]: a map held as one vector of entries in ascending key order.

use alloc::vec::Vec;
use core::borrow::Borrow;
use core::fmt;

/// A map kept as one vector of `(key, value)` entries in strictly ascending key order:
/// the map type of borrowed twins (`MRef<'a>`).
///
/// The wire already carries a map's entries in ascending key order (SPEC §6.4) and the
/// decoder refuses any other order, so decoding appends each checked entry to one
/// vector: one allocation per map field, where a `BTreeMap` allocates its nodes and
/// compares each key again to place it. Lookups are binary searches; iteration is in key
/// order, as a `BTreeMap`'s is, so a twin encodes to exactly the bytes of its owned value.
///
/// Every way of building one keeps the order: [`insert`](Self::insert) places the entry,
/// and collecting from an iterator sorts it, keeping the last value given for a key (as
/// collecting into a `BTreeMap` does).
///
/// ```
/// use bijoubuf::SortedMap;
///
/// let m: SortedMap<&str, u32> = [("b", 2), ("a", 1), ("b", 3)].into_iter().collect();
/// assert_eq!(m.get("b"), Some(&3));
/// assert_eq!(m.keys().copied().collect::<Vec<_>>(), ["a", "b"]);
/// ```
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> SortedMap<K, V> {
    /// An empty map (no allocation).
    #[must_use]
    pub const fn new() -> Self {
        SortedMap {
            entries: Vec::new(),
        }
    }

    /// Entries already in strictly ascending key order, as the decoder checked them.
    pub(crate) fn from_ordered(entries: Vec<(K, V)>) -> Self {
        SortedMap { entries }
    }

    /// The number of entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when there are no entries.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries, in ascending key order.
    #[must_use]
    pub fn as_slice(&self) -> &[(K, V)] {
        &self.entries
    }

    /// The entries in ascending key order, each as a pair of references.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter::over(&self.entries)
    }

    /// The keys in ascending order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &K> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    /// The values, in the ascending order of their keys.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// The entry with the smallest key.
    #[must_use]
    pub fn first_key_value(&self) -> Option<(&K, &V)> {
        self.entries.first().map(|(k, v)| (k, v))
    }

    /// The entry with the largest key.
    #[must_use]
    pub fn last_key_value(&self) -> Option<(&K, &V)> {
        self.entries.last().map(|(k, v)| (k, v))
    }

    /// Removes every entry, keeping the vector's capacity.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The entries as a vector in ascending key order.
    #[must_use]
    pub fn into_vec(self) -> Vec<(K, V)> {
        self.entries
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// Where `key` is, or where it would be inserted.
    fn find<Q>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// The value of `key`, found by binary search.
    #[must_use]
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value of `key`, mutably.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| &mut self.entries[i].1)
    }

    /// True when `key` has an entry.
    #[must_use]
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).is_ok()
    }

    /// Sets `key`'s value, returning the value it replaced. Entries after it move up by
    /// one: inserting in ascending key order costs O(1) each, in any other order O(n).
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.entries.last() {
            Some((last, _)) if *last < key => {
                self.entries.push((key, value));
                None
            }
            None => {
                self.entries.push((key, value));
                None
            }
            Some(_) => match self.find(&key) {
                Ok(i) => Some(core::mem::replace(&mut self.entries[i].1, value)),
                Err(i) => {
                    self.entries.insert(i, (key, value));
                    None
                }
            },
        }
    }

    /// Removes `key`'s entry, returning its value.
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Ord + ?Sized,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self::new()
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    /// Sorts the entries by key; of entries with equal keys the last one stays.
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        let mut entries: Vec<(K, V)> = iter.into_iter().collect();
        // Stable: equal keys keep their order, so the last given is last of its run.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        // Of a run of equal keys the first slot stays: each later entry is swapped into it
        // before being dropped, so it ends holding the last.
        entries.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                core::mem::swap(later, kept);
            }
            same
        });
        SortedMap { entries }
    }
}

impl<K: Ord, V> Extend<(K, V)> for SortedMap<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        for (k, v) in iter {
            self.insert(k, v);
        }
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = alloc::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<'m, K, V> IntoIterator for &'m SortedMap<K, V> {
    type Item = (&'m K, &'m V);
    type IntoIter = Iter<'m, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The entries of a [`SortedMap`] (or of any slice of pairs) in order, each as a pair of
/// references.
#[derive(Clone, Debug)]
pub struct Iter<'m, K, V>(core::slice::Iter<'m, (K, V)>);

impl<'m, K, V> Iter<'m, K, V> {
    pub(crate) fn over(entries: &'m [(K, V)]) -> Self {
        Iter(entries.iter())
    }
}

impl<'m, K, V> Iterator for Iter<'m, K, V> {
    type Item = (&'m K, &'m V);
    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<K, V> DoubleEndedIterator for Iter<'_, K, V> {
    #[inline]
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<K, V> ExactSizeIterator for Iter<'_, K, V> {}

#[cfg(test)]
mod tests {
    use super::SortedMap;
    use alloc::vec;
    use alloc::vec::Vec;

    #[test]
    fn collecting_sorts_and_keeps_the_last_value_of_a_key() {
        let m: SortedMap<u32, char> = [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')]
            .into_iter()
            .collect();
        assert_eq!(m.as_slice(), &[(1, 'e'), (2, 'd'), (3, 'c')]);
        // As a BTreeMap collects the same input.
        let t: alloc::collections::BTreeMap<u32, char> =
            [(3, 'a'), (1, 'b'), (3, 'c'), (2, 'd'), (1, 'e')]
                .into_iter()
                .collect();
        assert!(m.iter().eq(t.iter()));
    }

    #[test]
    fn insert_places_replaces_and_remove_takes_out() {
        let mut m = SortedMap::new();
        assert_eq!(m.insert(5, "five"), None);
        assert_eq!(m.insert(9, "nine"), None);
        assert_eq!(m.insert(1, "one"), None);
        assert_eq!(m.insert(7, "seven"), None);
        assert_eq!(m.insert(5, "FIVE"), Some("five"));
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), vec![1, 5, 7, 9]);
        assert_eq!(m.get(&5), Some(&"FIVE"));
        assert_eq!(m.get(&6), None);
        assert!(m.contains_key(&9) && !m.contains_key(&10));
        assert_eq!(m.remove(&7), Some("seven"));
        assert_eq!(m.remove(&7), None);
        assert_eq!(m.len(), 3);
        assert_eq!(m.first_key_value(), Some((&1, &"one")));
        assert_eq!(m.last_key_value(), Some((&9, &"nine")));
        *m.get_mut(&9).unwrap() = "NINE";
        assert_eq!(
            m.values().copied().collect::<Vec<_>>(),
            ["one", "FIVE", "NINE"]
        );
    }

    #[test]
    fn extend_and_iterators_keep_key_order() {
        let mut m: SortedMap<u8, u8> = SortedMap::from([(5, 50), (1, 10)]);
        m.extend([(3, 30), (9, 90), (1, 11)]);
        assert_eq!(m.as_slice(), &[(1, 11), (3, 30), (5, 50), (9, 90)]);
        let it = m.iter();
        assert_eq!(it.len(), 4);
        assert_eq!(m.iter().next_back(), Some((&9, &90)));
        assert_eq!(
            (&m).into_iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            [1, 3, 5, 9]
        );
        assert_eq!(m.keys().rev().copied().collect::<Vec<_>>(), [9, 5, 3, 1]);
        let mut cleared = m.clone();
        cleared.clear();
        assert!(cleared.is_empty() && cleared.first_key_value().is_none());
        assert_eq!(m.into_vec(), vec![(1, 11), (3, 30), (5, 50), (9, 90)]);
    }

    #[test]
    fn lookups_borrow_the_key_type() {
        let m: SortedMap<alloc::string::String, u8> =
            SortedMap::from([("b".into(), 2), ("a".into(), 1)]);
        assert_eq!(m.get("a"), Some(&1));
        assert_eq!(m.get("c"), None);
        assert_eq!(alloc::format!("{m:?}"), r#"{"a": 1, "b": 2}"#);
    }
}
