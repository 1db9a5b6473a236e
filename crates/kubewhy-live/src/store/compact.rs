//! Watch mode's events, held compact. A busy cluster holds more events than pods, and what they
//! say repeats: thousands of pods share one FailedScheduling message, every event names its
//! namespace, kind, reason, type and component. A held event keeps each of those texts as a number
//! into the store's `Atoms` (each text held once), its own name as what follows "<object>." (the
//! name the API server gives it), the uid of the object it is about in 16 bytes and its times as
//! nanoseconds: 128 bytes, none of them on the heap for a pod's usual event, against ~570 as an
//! `Event`. It becomes an `Event` again for each evaluation (`Held::event`), dropped with it.
//!
//! Invariant: an event read back is equal to the one decoded (`kubewhy_source::Object::decode`),
//! whatever its texts; only a count outside 0 to four billion (held at the nearer end) and a
//! time outside the years 1678–2262 (likewise) differ.

use super::Uid;
use jiff::Timestamp;
use kubewhy_model::objects::{Event, ObjectKey, Str};
use std::collections::HashMap;
use std::sync::Arc;

/// Texts held once, each by number; 0 is the empty text. Grows as new texts arrive; `sweep`
/// rebuilds it from what the held events still use.
pub(crate) struct Atoms {
    ids: HashMap<Arc<str>, u32>,
    texts: Vec<Arc<str>>,
    /// Texts after the last sweep: the next one is due when there are twice as many.
    swept_at: usize,
}

impl Default for Atoms {
    fn default() -> Self {
        Atoms {
            ids: HashMap::new(),
            texts: vec![Arc::from("")],
            swept_at: 0,
        }
    }
}

impl Atoms {
    fn id(&mut self, text: &str) -> u32 {
        if text.is_empty() {
            return 0;
        }
        if let Some(&id) = self.ids.get(text) {
            return id;
        }
        let id = self.texts.len() as u32;
        let text: Arc<str> = Arc::from(text);
        self.texts.push(text.clone());
        self.ids.insert(text, id);
        id
    }

    fn text(&self, id: u32) -> &str {
        self.texts.get(id as usize).map_or("", |t| t)
    }

    /// Whether enough texts arrived since the last sweep that one is worth its time (a pass over
    /// every held event, amortised over as many new texts as were left).
    pub(crate) fn sweep_due(&self) -> bool {
        self.texts.len() >= 2 * self.swept_at.max(4096)
    }

    /// Keeps only the texts `held` use, renumbering them.
    pub(crate) fn sweep(&mut self, held: &mut [&mut Held]) {
        let mut keep = vec![false; self.texts.len()];
        keep[0] = true;
        for h in held.iter() {
            for &a in &h.atoms {
                keep[a as usize] = true;
            }
        }
        let mut renumbered = vec![0u32; self.texts.len()];
        let mut texts = Vec::with_capacity(keep.iter().filter(|k| **k).count());
        for (old, text) in std::mem::take(&mut self.texts).into_iter().enumerate() {
            if keep[old] {
                renumbered[old] = texts.len() as u32;
                texts.push(text);
            }
        }
        self.ids = texts
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, t)| (t.clone(), i as u32))
            .collect();
        self.texts = texts;
        self.swept_at = self.texts.len();
        for h in held.iter_mut() {
            for a in &mut h.atoms {
                *a = renumbered[*a as usize];
            }
        }
    }

    /// Texts held (the empty one included).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.texts.len()
    }
}

/// The positions of the texts in `Held::atoms`.
const NAMESPACE: usize = 0;
const KIND: usize = 1;
const INVOLVED_NAMESPACE: usize = 2;
const REASON: usize = 3;
const MESSAGE: usize = 4;
const TYPE: usize = 5;
const SOURCE: usize = 6;
const HOST: usize = 7;
const FIELD_PATH: usize = 8;

/// One event as the store holds it.
pub(crate) struct Held {
    /// What follows "<involved name>." in the event's name; or, after a `/` (which no name
    /// holds), the whole name.
    name: Str,
    involved_name: Str,
    involved_uid: Option<Uid>,
    atoms: [u32; 9],
    count: u32,
    /// Nanoseconds since 1970, `NO_TIME` for none.
    first_time: i64,
    last_time: i64,
}

const NO_TIME: i64 = i64::MIN;

fn nanos(t: Option<Timestamp>) -> i64 {
    t.map_or(NO_TIME, |t| {
        t.as_nanosecond()
            .clamp(i128::from(NO_TIME + 1), i128::from(i64::MAX)) as i64
    })
}

fn time(nanos: i64) -> Option<Timestamp> {
    (nanos != NO_TIME)
        .then(|| Timestamp::from_nanosecond(i128::from(nanos)).ok())
        .flatten()
}

impl Held {
    pub(crate) fn new(e: &Event, atoms: &mut Atoms) -> Held {
        let suffix = e
            .name
            .strip_prefix(e.involved.name.as_str())
            .and_then(|rest| rest.strip_prefix('.'))
            .filter(|_| !e.involved.name.is_empty());
        let name = match suffix {
            Some(suffix) => Str::from(suffix),
            None => {
                let mut whole = Str::from("/");
                whole.push_str(&e.name);
                whole
            }
        };
        Held {
            name,
            involved_name: e.involved.name.clone(),
            involved_uid: (!e.involved.uid.is_empty()).then(|| Uid::new(&e.involved.uid)),
            atoms: [
                atoms.id(&e.namespace),
                atoms.id(&e.involved.kind),
                atoms.id(&e.involved.namespace),
                atoms.id(&e.reason),
                atoms.id(&e.message),
                atoms.id(&e.type_),
                atoms.id(&e.source),
                atoms.id(&e.host),
                atoms.id(&e.field_path),
            ],
            count: u32::try_from(e.count.max(0)).unwrap_or(u32::MAX),
            first_time: nanos(e.first_time),
            last_time: nanos(e.last_time),
        }
    }

    /// The event again, as it was decoded.
    pub(crate) fn event(&self, atoms: &Atoms) -> Event {
        let text = |i: usize| Str::from(atoms.text(self.atoms[i]));
        let name = match self.name.strip_prefix('/') {
            Some(whole) => Str::from(whole),
            None => {
                let mut n = self.involved_name.clone();
                n.push('.');
                n.push_str(&self.name);
                n
            }
        };
        Event {
            namespace: text(NAMESPACE),
            name,
            involved: ObjectKey {
                kind: text(KIND),
                namespace: text(INVOLVED_NAMESPACE),
                name: self.involved_name.clone(),
                uid: self
                    .involved_uid
                    .as_ref()
                    .map(|u| Str::from(u.to_string()))
                    .unwrap_or_default(),
            },
            reason: text(REASON),
            message: text(MESSAGE),
            type_: text(TYPE),
            count: i64::from(self.count),
            first_time: time(self.first_time),
            last_time: time(self.last_time),
            source: text(SOURCE),
            host: text(HOST),
            field_path: text(FIELD_PATH),
        }
    }

    /// Whether the event is about a pod whose uid `alive` does not hold, and happened `grace`
    /// seconds or more before `now` (or at no known time).
    pub(crate) fn about_gone_pod(
        &self,
        atoms: &Atoms,
        alive: &std::collections::HashSet<Uid>,
        now: Timestamp,
        grace: i64,
    ) -> bool {
        atoms.text(self.atoms[KIND]) == "Pod"
            && self
                .involved_uid
                .as_ref()
                .is_some_and(|u| !alive.contains(u))
            && time(self.last_time)
                .or(time(self.first_time))
                .is_none_or(|t| now.as_second() - t.as_second() >= grace)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(name: &str, involved: &str, uid: &str, message: &str) -> Event {
        Event {
            namespace: "shop".into(),
            name: name.into(),
            involved: ObjectKey::new("Pod", "shop", involved, uid),
            reason: "FailedScheduling".into(),
            message: message.into(),
            type_: "Warning".into(),
            count: 7,
            first_time: Some("2026-11-25T10:00:01Z".parse().unwrap()),
            last_time: Some("2026-11-25T10:04:01.123456789Z".parse().unwrap()),
            source: "default-scheduler".into(),
            host: "".into(),
            field_path: "spec.containers{app}".into(),
        }
    }

    fn same(a: &Event, b: &Event) {
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
    }

    #[test]
    fn an_event_held_is_read_back_field_for_field_in_128_bytes() {
        assert_eq!(std::mem::size_of::<Held>(), 128);
        let mut atoms = Atoms::default();
        let long =
            "0/5000 nodes are available: 5000 node(s) didn't match Pod's node affinity/selector.";
        let cases = [
            event(
                "web-1.17a8b3c4d5e6f708",
                "web-1",
                "0b9a6f0e-3f43-4c1a-9d1e-2f4b5c6d7e8f",
                long,
            ),
            // A name that does not start with its object's, a uid that is no UUID, none at all.
            event("other-name", "web-1", "UID-7", "short"),
            event("web-1", "web-1", "", ""),
            event("x.y", "", "", long),
        ];
        for e in &cases {
            let held = Held::new(e, &mut atoms);
            same(&held.event(&atoms), e);
        }
        let mut bare = event("n", "p", "", "");
        (bare.first_time, bare.last_time, bare.count) = (None, None, 0);
        same(&Held::new(&bare, &mut atoms).event(&atoms), &bare);
        // The long message and every repeated text held once.
        assert_eq!(atoms.len(), 1 + 8);
    }

    #[test]
    fn a_sweep_keeps_the_texts_still_used_and_renumbers_them() {
        let mut atoms = Atoms::default();
        let a = event("a.1", "a", "", "first message");
        let b = event("b.1", "b", "", "second message");
        let mut held_a = Held::new(&a, &mut atoms);
        let _gone = Held::new(&b, &mut atoms);
        let before = atoms.len();
        atoms.sweep(&mut [&mut held_a]);
        assert_eq!(atoms.len(), before - 1, "only the second message went");
        same(&held_a.event(&atoms), &a);
        // A text seen again after the sweep is numbered anew.
        let held_b = Held::new(&b, &mut atoms);
        same(&held_b.event(&atoms), &b);
        same(&held_a.event(&atoms), &a);
    }
}
