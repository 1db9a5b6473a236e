//! `SmallMap`: the string-keyed maps of the slim views (labels, resource requests, capacity) as
//! one sorted vector. Objects carry a handful of entries each, and a cluster carries hundreds of
//! thousands of such maps: a `BTreeMap` node costs over 500 bytes even for one entry, a sorted
//! vector costs its entries. Lookups are binary searches; iteration is in key order, as with a
//! `BTreeMap`.

use crate::objects::Str;
use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};
use std::fmt;
use std::marker::PhantomData;

#[derive(Clone, PartialEq, Eq, Hash)]
pub struct SmallMap<V> {
    /// Sorted by key, keys unique.
    entries: Vec<(Str, V)>,
}

impl<V> Default for SmallMap<V> {
    fn default() -> Self {
        SmallMap {
            entries: Vec::new(),
        }
    }
}

impl<V> SmallMap<V> {
    pub const fn new() -> Self {
        SmallMap {
            entries: Vec::new(),
        }
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    pub fn get(&self, key: &str) -> Option<&V> {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaces.
    pub fn insert(&mut self, key: impl Into<Str>, value: V) -> Option<V> {
        let key = key.into();
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove(&mut self, key: &str) -> Option<V> {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Entries in key order.
    pub fn iter(&self) -> Iter<'_, V> {
        Iter(self.entries.iter())
    }

    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Str> + ExactSizeIterator {
        self.entries.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl DoubleEndedIterator<Item = &V> + ExactSizeIterator {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Sorts entries pushed in any order; of equal keys the last pushed wins, as it would have
    /// by inserting each in turn.
    fn from_unsorted(mut entries: Vec<(Str, V)>) -> Self {
        // A stable sort keeps equal keys in the order pushed: the last of each run is kept.
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        let mut out: Vec<(Str, V)> = Vec::with_capacity(entries.len());
        for e in entries {
            match out.last_mut() {
                Some(last) if last.0 == e.0 => *last = e,
                _ => out.push(e),
            }
        }
        SmallMap { entries: out }
    }
}

/// The entries of a `SmallMap`, in key order.
pub struct Iter<'a, V>(std::slice::Iter<'a, (Str, V)>);

impl<'a, V> Iterator for Iter<'a, V> {
    type Item = (&'a Str, &'a V);
    fn next(&mut self) -> Option<Self::Item> {
        self.0.next().map(|(k, v)| (k, v))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

impl<V> DoubleEndedIterator for Iter<'_, V> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.0.next_back().map(|(k, v)| (k, v))
    }
}

impl<V> ExactSizeIterator for Iter<'_, V> {}

impl<'a, V> IntoIterator for &'a SmallMap<V> {
    type Item = (&'a Str, &'a V);
    type IntoIter = Iter<'a, V>;
    fn into_iter(self) -> Iter<'a, V> {
        self.iter()
    }
}

impl<V> IntoIterator for SmallMap<V> {
    type Item = (Str, V);
    type IntoIter = std::vec::IntoIter<(Str, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

impl<V> std::ops::Index<&str> for SmallMap<V> {
    type Output = V;
    fn index(&self, key: &str) -> &V {
        self.get(key)
            .unwrap_or_else(|| panic!("no entry {key:?} in map"))
    }
}

impl<K: Into<Str>, V> FromIterator<(K, V)> for SmallMap<V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_unsorted(iter.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }
}

impl<K: Into<Str>, V> Extend<(K, V)> for SmallMap<V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, iter: I) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.extend(iter.into_iter().map(|(k, v)| (k.into(), v)));
        *self = Self::from_unsorted(entries);
    }
}

/// `[("app", "web")].into()`: keys and values of any type that converts.
impl<K: Into<Str>, W: Into<V>, V, const N: usize> From<[(K, W); N]> for SmallMap<V> {
    fn from(entries: [(K, W); N]) -> Self {
        entries.into_iter().map(|(k, w)| (k, w.into())).collect()
    }
}

impl<V: fmt::Debug> fmt::Debug for SmallMap<V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V: Serialize> Serialize for SmallMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.len()))?;
        for (k, v) in self {
            m.serialize_entry(k.as_str(), v)?;
        }
        m.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SmallMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = SmallMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<SmallMap<V>, A::Error> {
                let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
                while let Some(entry) = map.next_entry::<Str, V>()? {
                    entries.push(entry);
                }
                Ok(SmallMap::from_unsorted(entries))
            }
        }
        d.deserialize_map(MapVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_sorted_map() {
        let mut m: SmallMap<u32> = [("b", 2u32), ("a", 1), ("c", 3), ("a", 9)].into();
        assert_eq!(m.len(), 3);
        assert_eq!(m.get("a"), Some(&9), "the last of equal keys wins");
        assert_eq!(m["c"], 3);
        assert!(m.contains_key("b") && !m.contains_key("d"));
        assert_eq!(
            m.keys().map(|k| k.as_str()).collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        assert_eq!(m.insert("b", 5), Some(2));
        assert_eq!(m.insert("aa", 4), None);
        assert_eq!(m.remove("c"), Some(3));
        assert_eq!(format!("{m:?}"), r#"{"a": 9, "aa": 4, "b": 5}"#);
        m.extend([("z", 0), ("a", 1)]);
        assert_eq!(m.values().copied().collect::<Vec<_>>(), [1, 4, 5, 0]);
    }

    #[test]
    fn reads_and_writes_json_maps() {
        let m: SmallMap<Str> = serde_json::from_str(r#"{"z":"1","a":"2","z":"3"}"#).unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"a":"2","z":"3"}"#);
        assert!(serde_json::from_str::<SmallMap<Str>>("[1]").is_err());
    }

    proptest::proptest! {
        /// Whatever the order and repetition of keys, lookups agree with a BTreeMap built by
        /// inserting the same entries in turn.
        #[test]
        fn agrees_with_btreemap(entries in proptest::collection::vec(("[a-d]{0,2}", 0u8..10), 0..20)) {
            let small: SmallMap<u8> = entries.iter().cloned().collect();
            let big: std::collections::BTreeMap<String, u8> = entries.iter().cloned().collect();
            let a: Vec<(String, u8)> = small.iter().map(|(k, v)| (k.to_string(), *v)).collect();
            let b: Vec<(String, u8)> = big.into_iter().collect();
            proptest::prop_assert_eq!(a, b);
        }
    }
}
