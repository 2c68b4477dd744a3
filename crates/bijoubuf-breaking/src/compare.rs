//! The comparison: pairs old and new messages and enums, then checks each pair in both
//! directions. "Old bytes read by the new schema" gives the canonical findings, "new
//! bytes read by the old schema" the forward ones: one directional check serves both,
//! with writer and reader swapped.
//!
//! Types pair by full name (package and nesting), or by a rename the caller declares
//! ([`Renames`]); an old type whose counterpart the new schema lacks is removed, and a
//! new type no old one pairs with is an addition, never compared with an unrelated old
//! type of the same short name. A field whose type changed to another message or enum
//! pairs the two types for that field's bytes only: what the new schema reads there is
//! the new type, whatever its name.

use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};

use bijoubuf_schema::Presence;

use crate::finding::{Category, Severity, Side, Subject, Witness};
use crate::rules::Rule;
use crate::scalar::{Compat, WireScalar, compat, json_compatible, rust_type};
use crate::view::{Card, Elem, EnumV, FieldV, MsgV, View};

/// Where a finding points, in the new schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Loc {
    Message(String),
    Field(String, u32),
    Enum(String),
    EnumValue(String, String),
    File(String),
}

/// A finding before its place is resolved to a span.
#[derive(Clone, Debug)]
pub(crate) struct Raw {
    pub(crate) rule: Rule,
    pub(crate) category: Category,
    pub(crate) severity: Severity,
    pub(crate) message: String,
    pub(crate) at: Loc,
    pub(crate) subject: Option<Subject>,
}

/// What a name stands for on one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Message,
    Enum,
    Package,
}

impl Kind {
    fn word(self) -> &'static str {
        match self {
            Kind::Message => "a message",
            Kind::Enum => "an enum",
            Kind::Package => "a package",
        }
    }
}

fn kind_of(view: &View, name: &str) -> Option<Kind> {
    if view.messages.get(name).is_some_and(|m| !m.map_entry) {
        Some(Kind::Message)
    } else if view.enums.contains_key(name) {
        Some(Kind::Enum)
    } else if view.files.iter().any(|f| {
        f.package == name
            || f.package
                .strip_prefix(name)
                .is_some_and(|rest| rest.starts_with('.'))
    }) {
        Some(Kind::Package)
    } else {
        None
    }
}

/// Declared renames, checked against both sides: old full name (a message, an enum or a
/// package) → new full name of the same kind. A rename carries the types nested or
/// declared under the old name along with it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Renames {
    /// Longest old name first, so the closest rename wins.
    rules: Vec<(String, String)>,
}

impl Renames {
    pub(crate) fn resolve(
        renames: &[(String, String)],
        old: &View,
        new: &View,
    ) -> Result<Renames, String> {
        let mut rules: Vec<(String, String)> = Vec::new();
        for (from, to) in renames {
            let from = from.strip_prefix('.').unwrap_or(from);
            let to = to.strip_prefix('.').unwrap_or(to);
            if from.is_empty() || to.is_empty() {
                return Err(format!("{from:?} → {to:?}: both names must be given"));
            }
            let a = kind_of(old, from).ok_or_else(|| {
                format!("{from} is not a message, enum or package of the old schema")
            })?;
            let b = kind_of(new, to).ok_or_else(|| {
                format!("{to} is not a message, enum or package of the new schema")
            })?;
            if a != b {
                return Err(format!("{from} is {} but {to} is {}", a.word(), b.word()));
            }
            if rules.iter().any(|(f, _)| f == from) {
                return Err(format!("{from} is renamed twice"));
            }
            rules.push((from.to_string(), to.to_string()));
        }
        rules.sort_by(|x, y| y.0.len().cmp(&x.0.len()).then_with(|| x.0.cmp(&y.0)));
        Ok(Renames { rules })
    }

    /// The new full name a rename gives old type `name`, if one covers it.
    fn renamed(&self, name: &str) -> Option<String> {
        self.rules.iter().find_map(|(from, to)| {
            let rest = name.strip_prefix(from.as_str())?;
            (rest.is_empty() || rest.starts_with('.')).then(|| format!("{to}{rest}"))
        })
    }

    /// The full name old type `name` has in the new schema, if it kept one.
    fn counterpart(&self, name: &str) -> String {
        self.renamed(name).unwrap_or_else(|| name.to_string())
    }
}

type Pair = (String, String);
/// An enum pair's first user: (old message, new message, field number).
type EnumUser = Option<(String, String, u32)>;

struct Cmp<'a> {
    old: &'a View,
    new: &'a View,
    renames: &'a Renames,
    out: Vec<Raw>,
    msg_seen: BTreeSet<Pair>,
    queue: VecDeque<Pair>,
    enums: BTreeMap<Pair, EnumUser>,
}

/// Every finding of `old` → `new`.
pub(crate) fn compare(old: &View, new: &View, renames: &Renames) -> Vec<Raw> {
    let mut c = Cmp {
        old,
        new,
        renames,
        out: Vec::new(),
        msg_seen: BTreeSet::new(),
        queue: VecDeque::new(),
        enums: BTreeMap::new(),
    };
    c.packages();
    for (name, m) in &old.messages {
        let there = renames.counterpart(name);
        if c.compared(m.file) && !m.map_entry && new.messages.contains_key(&there) {
            c.push_messages(name, &there);
        }
    }
    for (name, e) in &old.enums {
        let there = renames.counterpart(name);
        if c.compared(e.file) && new.enums.contains_key(&there) {
            c.enums.insert((name.clone(), there), None);
        }
    }
    c.drain();
    c.removed_messages();
    c.removed_enums();
    let users = c.enum_users();
    let enums: Vec<(Pair, EnumUser)> = c.enums.clone().into_iter().collect();
    for ((o, n), user) in enums {
        let user = user.or_else(|| users.get(&(o.clone(), n.clone())).cloned());
        c.enum_pair(&old.enums[&o], &new.enums[&n], user);
    }
    c.out
}

impl<'a> Cmp<'a> {
    fn compared(&self, file: usize) -> bool {
        self.old.files[file].requested
    }

    fn emit(
        &mut self,
        rule: Rule,
        category: Category,
        severity: Severity,
        message: String,
        at: Loc,
        subject: Option<Subject>,
    ) {
        self.out.push(Raw {
            rule,
            category,
            severity,
            message,
            at,
            subject,
        });
    }

    /// A finding of severity error.
    fn error(
        &mut self,
        rule: Rule,
        category: Category,
        message: String,
        at: Loc,
        subject: Option<Subject>,
    ) {
        self.emit(rule, category, Severity::Error, message, at, subject);
    }

    fn push_messages(&mut self, old: &str, new: &str) {
        let pair = (old.to_string(), new.to_string());
        if self.msg_seen.insert(pair.clone()) {
            self.queue.push_back(pair);
        }
    }

    fn drain(&mut self) {
        while let Some((o, n)) = self.queue.pop_front() {
            let (old, new) = (self.old, self.new);
            self.message_pair(&old.messages[&o], &new.messages[&n]);
        }
    }

    fn packages(&mut self) {
        for f in self.old.files.iter().filter(|f| f.requested) {
            if let Some(n) = self.new.files.iter().find(|n| n.name == f.name)
                && n.package != f.package
            {
                let message = format!(
                    "file {} moved from package {:?} to {:?}",
                    f.name, f.package, n.package
                );
                for cat in [Category::Json, Category::Source] {
                    let at = Loc::File(n.name.clone());
                    self.error(Rule::PackageChanged, cat, message.clone(), at, None);
                }
            }
        }
    }

    /// Old messages whose full name (or declared new name) the new schema lacks: each
    /// is removed, even where a field's type switched to another message (that field's
    /// bytes are compared through the pair all the same).
    fn removed_messages(&mut self) {
        let removed: Vec<String> = self
            .old
            .messages
            .iter()
            .filter(|(name, m)| {
                self.compared(m.file)
                    && !m.map_entry
                    && !self
                        .new
                        .messages
                        .contains_key(&self.renames.counterpart(name))
            })
            .map(|(name, _)| name.clone())
            .collect();
        for name in removed {
            let at = self.new_place_of_removed(&name);
            self.error(
                Rule::MessageRemoved,
                Category::Source,
                format!("message {name} is removed"),
                at,
                None,
            );
        }
    }

    fn removed_enums(&mut self) {
        let removed: Vec<String> = self
            .old
            .enums
            .iter()
            .filter(|(name, e)| {
                self.compared(e.file)
                    && !self.new.enums.contains_key(&self.renames.counterpart(name))
            })
            .map(|(name, _)| name.clone())
            .collect();
        for name in removed {
            let at = self.new_place_of_removed(&name);
            self.error(
                Rule::EnumRemoved,
                Category::Source,
                format!("enum {name} is removed"),
                at,
                None,
            );
        }
    }

    /// Declared renamed: `o` is `n` by a rename, not only through a field's type.
    fn declared(&self, o: &str, n: &str) -> bool {
        o != n && self.renames.renamed(o).as_deref() == Some(n)
    }

    /// A removed type is shown at its parent message in the new schema, else at its file.
    fn new_place_of_removed(&self, name: &str) -> Loc {
        if let Some((parent, _)) = name.rsplit_once('.')
            && self.new.messages.contains_key(parent)
        {
            return Loc::Message(parent.to_string());
        }
        let file = self
            .old
            .messages
            .get(name)
            .map(|m| m.file)
            .or_else(|| self.old.enums.get(name).map(|e| e.file))
            .map(|i| self.old.files[i].name.clone())
            .unwrap_or_default();
        Loc::File(file)
    }

    fn message_pair(&mut self, o: &'a MsgV, n: &'a MsgV) {
        // Paired through a field whose type became another message: that is a
        // field-type-changed finding, not a rename.
        if self.declared(&o.full_name, &n.full_name) {
            let message = format!("message {} is now {}", o.full_name, n.full_name);
            for cat in [Category::Json, Category::Source] {
                let at = Loc::Message(n.full_name.clone());
                self.error(Rule::MessageRenamed, cat, message.clone(), at, None);
            }
        }
        self.directional(o, n, Side::Old);
        self.directional(n, o, Side::New);
        self.names_and_api(o, n);
        self.reserved(o, n);
    }

    /// Bytes `w` writes, read by `r`. `writer` says which schema `w` belongs to.
    fn directional(&mut self, w: &'a MsgV, r: &'a MsgV, writer: Side) {
        let cat = match writer {
            Side::Old => Category::Canonical,
            Side::New => Category::Forward,
        };
        let new_msg = match writer {
            Side::Old => r,
            Side::New => w,
        };
        let subject = |witness: Witness| {
            Some(Subject {
                writer,
                writer_message: w.full_name.clone(),
                reader_message: r.full_name.clone(),
                witness,
            })
        };
        for f in &w.fields {
            match r.field(f.number) {
                Some(g) => self.field_pair(w, r, f, g, writer),
                None => {
                    if let Some(g) = r
                        .field_by_name(&f.name)
                        .filter(|g| w.field(g.number).is_none())
                    {
                        let (from, to) = match writer {
                            Side::Old => (f.number, g.number),
                            Side::New => (g.number, f.number),
                        };
                        let at = Loc::Field(new_msg.full_name.clone(), to);
                        let message = format!(
                            "field {}.{} moved from number {from} to {to}",
                            new_msg.full_name, f.name
                        );
                        self.error(
                            Rule::FieldRenumbered,
                            cat,
                            message,
                            at,
                            subject(Witness::Fields(vec![f.number])),
                        );
                    } else if writer == Side::Old {
                        let reserved = if r.is_reserved(f.number) {
                            "; it is reserved, but a strict reader still refuses old bytes holding it"
                        } else {
                            ""
                        };
                        let message = format!(
                            "field {}.{} ({}) is removed{reserved}",
                            w.full_name, f.name, f.number
                        );
                        let at = Loc::Message(r.full_name.clone());
                        self.error(
                            Rule::FieldRemoved,
                            cat,
                            message.clone(),
                            at.clone(),
                            subject(Witness::Fields(vec![f.number])),
                        );
                        self.error(
                            Rule::FieldRemoved,
                            Category::Json,
                            message.clone(),
                            at.clone(),
                            None,
                        );
                        self.error(Rule::FieldRemoved, Category::Source, message, at, None);
                    } else {
                        let message = format!(
                            "field {}.{} ({}) is new: a strict old reader refuses bytes holding it; a preserving one keeps it",
                            w.full_name, f.name, f.number
                        );
                        let at = Loc::Field(w.full_name.clone(), f.number);
                        self.emit(
                            Rule::FieldAdded,
                            cat,
                            Severity::Warning,
                            message,
                            at,
                            subject(Witness::Fields(vec![f.number])),
                        );
                    }
                }
            }
        }
        // SPEC §5.3: a field the reader requires that the writer may leave out.
        for g in &r.fields {
            if g.presence == Presence::Required && w.field(g.number).is_none() {
                let (rule, message, at) = match writer {
                    Side::Old => (
                        Rule::RequiredAdded,
                        format!(
                            "required field {}.{} is new: old bytes do not hold it",
                            r.full_name, g.name
                        ),
                        Loc::Field(r.full_name.clone(), g.number),
                    ),
                    Side::New => (
                        Rule::RequiredRemoved,
                        format!(
                            "required field {}.{} is removed: old readers still require it",
                            r.full_name, g.name
                        ),
                        Loc::Message(w.full_name.clone()),
                    ),
                };
                self.error(rule, cat, message, at, subject(Witness::Empty));
            }
        }
        // SPEC §5.4: members of one reader oneof that the writer can set together.
        for (oi, oneof) in r.oneofs.iter().enumerate() {
            let mut groups: Vec<(Option<usize>, u32)> = Vec::new();
            for g in r.fields.iter().filter(|g| g.oneof == Some(oi)) {
                let Some(f) = w.field(g.number) else { continue };
                if f.oneof.is_none() || !groups.iter().any(|(o, _)| *o == f.oneof) {
                    groups.push((f.oneof, f.number));
                }
            }
            if let [(_, a), (_, b), ..] = groups.as_slice() {
                let (a, b) = (*a, *b);
                let name = |n: u32| w.field(n).map_or("", |f| f.name.as_str()).to_string();
                let message = match writer {
                    Side::Old => format!(
                        "fields {} and {} of {}, which old bytes may hold together, are members of oneof {oneof}",
                        name(a),
                        name(b),
                        r.full_name
                    ),
                    Side::New => format!(
                        "fields {} and {} of {} left oneof {oneof}: the new schema may write both, an old reader refuses that",
                        name(a),
                        name(b),
                        w.full_name
                    ),
                };
                let at = Loc::Field(new_msg.full_name.clone(), a);
                self.error(
                    Rule::FieldOneofChanged,
                    cat,
                    message,
                    at,
                    subject(Witness::Fields(vec![a, b])),
                );
            }
        }
    }

    fn field_pair(&mut self, w: &MsgV, r: &MsgV, f: &FieldV, g: &FieldV, writer: Side) {
        let cat = match writer {
            Side::Old => Category::Canonical,
            Side::New => Category::Forward,
        };
        let new_msg = match writer {
            Side::Old => r,
            Side::New => w,
        };
        let at = Loc::Field(new_msg.full_name.clone(), f.number);
        let subject = Some(Subject {
            writer,
            writer_message: w.full_name.clone(),
            reader_message: r.full_name.clone(),
            witness: Witness::Fields(vec![f.number]),
        });
        let what = format!("field {}.{}", new_msg.full_name, g.name);
        let (old_f, new_f) = match writer {
            Side::Old => (f, g),
            Side::New => (g, f),
        };
        match (&f.card, &g.card) {
            (Card::Single, Card::Single) | (Card::Repeated, Card::Repeated) => {}
            (Card::Map(a), Card::Map(b)) => {
                let c = compat(WireScalar::Scalar(*a), WireScalar::Scalar(*b));
                if c != Compat::Identical {
                    let message = format!(
                        "{what}: map key type {} → {} ({})",
                        old_key(old_f),
                        old_key(new_f),
                        verdict(c)
                    );
                    self.error(
                        Rule::FieldTypeChanged,
                        cat,
                        message,
                        at.clone(),
                        subject.clone(),
                    );
                }
            }
            (Card::Map(_), Card::Repeated) | (Card::Repeated, Card::Map(_)) => {
                let message = format!("{what} changed between a map and a repeated entry message");
                self.error(Rule::FieldMapChanged, cat, message, at, subject);
                return;
            }
            _ => {
                let message = format!(
                    "{what} changed from {} to {}",
                    card_word(&old_f.card),
                    card_word(&new_f.card)
                );
                self.error(Rule::FieldCardinalityChanged, cat, message, at, subject);
                return;
            }
        }
        match (&f.elem, &g.elem) {
            (Elem::Message(a), Elem::Message(b)) => {
                if writer == Side::Old {
                    self.push_messages(a, b);
                }
            }
            (Elem::Enum(a), Elem::Enum(b)) => {
                if writer == Side::Old && matches!(f.card, Card::Single | Card::Repeated) {
                    let user = Some((w.full_name.clone(), r.full_name.clone(), f.number));
                    let slot = self.enums.entry((a.clone(), b.clone())).or_insert(None);
                    if slot.is_none() {
                        *slot = user;
                    }
                } else if writer == Side::Old {
                    self.enums.entry((a.clone(), b.clone())).or_insert(None);
                }
            }
            (Elem::Message(_), _) | (_, Elem::Message(_)) => {
                let message = format!(
                    "{what} changed type from {} to {}",
                    elem_word(&old_f.elem),
                    elem_word(&new_f.elem)
                );
                self.error(
                    Rule::FieldTypeChanged,
                    cat,
                    message,
                    at.clone(),
                    subject.clone(),
                );
            }
            (a, b) => {
                let (a, b) = (wire_scalar(a), wire_scalar(b));
                let c = compat(a, b);
                if c != Compat::Identical {
                    let (from, to) = match writer {
                        Side::Old => (a, b),
                        Side::New => (b, a),
                    };
                    let message = format!(
                        "{what} changed type from {} to {}: {} bytes read by the {} schema are {}",
                        from.keyword(),
                        to.keyword(),
                        writer.name(),
                        writer.other().name(),
                        verdict(c)
                    );
                    self.error(
                        Rule::FieldTypeChanged,
                        cat,
                        message,
                        at.clone(),
                        subject.clone(),
                    );
                }
            }
        }
        if f.card != Card::Single || matches!(f.elem, Elem::Message(_)) {
            return;
        }
        // SPEC §5.1: an implicit reader refuses a written default.
        if f.tracks_presence() && g.presence == Presence::Implicit {
            let message = match writer {
                Side::Old => format!(
                    "{what} lost explicit presence: old bytes holding a set default are refused"
                ),
                Side::New => format!(
                    "{what} gained explicit presence: a set default the new schema writes is refused by old readers"
                ),
            };
            self.error(
                Rule::FieldPresenceChanged,
                cat,
                message,
                at.clone(),
                subject.clone(),
            );
        }
        if f.presence != Presence::Required && g.presence == Presence::Required {
            let (rule, message) = match writer {
                Side::Old => (
                    Rule::RequiredAdded,
                    format!("{what} became required: old bytes may lack it"),
                ),
                Side::New => (
                    Rule::RequiredRemoved,
                    format!("{what} is no longer required: old readers refuse bytes without it"),
                ),
            };
            let subject = subject.map(|s| Subject {
                witness: Witness::Empty,
                ..s
            });
            self.error(rule, cat, message, at, subject);
        }
    }

    /// JSON names and the generated API: reported once, old → new.
    fn names_and_api(&mut self, o: &MsgV, n: &MsgV) {
        for f in &o.fields {
            let Some(g) = n.field(f.number) else { continue };
            let at = Loc::Field(n.full_name.clone(), g.number);
            let what = format!("field {}.{}", n.full_name, g.name);
            if f.name != g.name {
                let message = format!(
                    "field {}.{} ({}) is now named {}",
                    o.full_name, f.name, f.number, g.name
                );
                if f.json_name != g.json_name {
                    self.error(
                        Rule::FieldRenamed,
                        Category::Json,
                        message.clone(),
                        at.clone(),
                        None,
                    );
                }
                self.error(
                    Rule::FieldRenamed,
                    Category::Source,
                    message,
                    at.clone(),
                    None,
                );
            } else if f.json_name != g.json_name {
                let message = format!(
                    "{what}: JSON name {:?} is now {:?}",
                    f.json_name, g.json_name
                );
                self.error(
                    Rule::FieldJsonNameChanged,
                    Category::Json,
                    message,
                    at.clone(),
                    None,
                );
            }
            let same_shape = match (&f.card, &g.card) {
                (Card::Map(_), Card::Repeated) | (Card::Repeated, Card::Map(_)) => {
                    let message =
                        format!("{what} changed between a map and a repeated entry message");
                    for cat in [Category::Json, Category::Source] {
                        self.error(
                            Rule::FieldMapChanged,
                            cat,
                            message.clone(),
                            at.clone(),
                            None,
                        );
                    }
                    false
                }
                (a, b) if std::mem::discriminant(a) != std::mem::discriminant(b) => {
                    let message =
                        format!("{what} changed from {} to {}", card_word(a), card_word(b));
                    for cat in [Category::Json, Category::Source] {
                        self.error(
                            Rule::FieldCardinalityChanged,
                            cat,
                            message.clone(),
                            at.clone(),
                            None,
                        );
                    }
                    false
                }
                _ => true,
            };
            if !same_shape {
                continue;
            }
            let (json_ok, rust_ok) = match (&f.elem, &g.elem) {
                // The generated type is another unless `b` is `a` by name or by a declared
                // rename. JSON does not name the type: it changes only for a type that
                // exists on both sides (another type, not a moved one), whose fields are
                // another matter than the pair's.
                (Elem::Message(a), Elem::Message(b)) => {
                    let same = self.renames.counterpart(a) == *b;
                    let other = !same
                        && (self.new.messages.contains_key(a) || self.old.messages.contains_key(b));
                    (!other, same)
                }
                (Elem::Enum(a), Elem::Enum(b)) => {
                    let same = self.renames.counterpart(a) == *b;
                    let other =
                        !same && (self.new.enums.contains_key(a) || self.old.enums.contains_key(b));
                    (!other, same)
                }
                (Elem::Message(_), _) | (_, Elem::Message(_)) => (false, false),
                (a, b) => {
                    let (a, b) = (wire_scalar(a), wire_scalar(b));
                    (json_compatible(a, b), rust_type(a) == rust_type(b))
                }
            };
            let type_msg = || {
                format!(
                    "{what} changed type from {} to {}",
                    elem_word(&f.elem),
                    elem_word(&g.elem)
                )
            };
            if !json_ok {
                self.error(
                    Rule::FieldTypeChanged,
                    Category::Json,
                    type_msg(),
                    at.clone(),
                    None,
                );
            }
            if !rust_ok {
                self.error(
                    Rule::FieldTypeChanged,
                    Category::Source,
                    type_msg(),
                    at.clone(),
                    None,
                );
            }
            if let (Card::Map(a), Card::Map(b)) = (&f.card, &g.card)
                && a != b
            {
                let message = format!("{what}: map key type {} → {}", a.keyword(), b.keyword());
                self.error(
                    Rule::FieldTypeChanged,
                    Category::Source,
                    message,
                    at.clone(),
                    None,
                );
            }
            if f.card == Card::Single
                && g.card == Card::Single
                && !matches!(g.elem, Elem::Message(_))
            {
                let optional = |p: Presence| p == Presence::Explicit;
                if optional(f.presence) != optional(g.presence)
                    && f.oneof.is_none()
                    && g.oneof.is_none()
                {
                    let message = format!(
                        "{what} changed presence from {} to {}",
                        presence_word(f.presence),
                        presence_word(g.presence)
                    );
                    self.error(
                        Rule::FieldPresenceChanged,
                        Category::Source,
                        message,
                        at.clone(),
                        None,
                    );
                }
            }
            let oneof_name = |m: &MsgV, x: &FieldV| x.oneof.map(|i| m.oneofs[i].clone());
            let (a, b) = (oneof_name(o, f), oneof_name(n, g));
            if a != b {
                let message = format!(
                    "{what} moved from {} to {}",
                    a.map_or("no oneof".into(), |x| format!("oneof {x}")),
                    b.map_or("no oneof".into(), |x| format!("oneof {x}"))
                );
                self.error(Rule::FieldOneofChanged, Category::Source, message, at, None);
            }
        }
    }

    fn reserved(&mut self, o: &MsgV, n: &MsgV) {
        for g in &n.fields {
            let at = Loc::Field(n.full_name.clone(), g.number);
            if o.is_reserved(g.number) && o.field(g.number).is_none() {
                let message = format!(
                    "field {}.{} uses number {}, which the old schema reserves",
                    n.full_name, g.name, g.number
                );
                let subject = Some(Subject {
                    writer: Side::Old,
                    writer_message: o.full_name.clone(),
                    reader_message: n.full_name.clone(),
                    witness: Witness::Reserved { number: g.number },
                });
                self.error(
                    Rule::ReservedNumberReused,
                    Category::Canonical,
                    message,
                    at.clone(),
                    subject,
                );
            }
            if o.reserved_names.contains(&g.name) && o.field_by_name(&g.name).is_none() {
                let message = format!(
                    "field {}.{} uses a name the old schema reserves",
                    n.full_name, g.name
                );
                self.error(Rule::ReservedNameReused, Category::Json, message, at, None);
            }
        }
        for &(a, b) in &o.reserved {
            if !n.reserved.iter().any(|&(c, d)| c <= a && b <= d) {
                let range = if a == b {
                    format!("{a}")
                } else {
                    format!("{a} to {b}")
                };
                let message = format!("{}: reserved {range} is no longer reserved", n.full_name);
                self.emit(
                    Rule::ReservedRemoved,
                    Category::Source,
                    Severity::Warning,
                    message,
                    Loc::Message(n.full_name.clone()),
                    None,
                );
            }
        }
        for name in &o.reserved_names {
            if !n.reserved_names.contains(name) {
                let message = format!(
                    "{}: reserved name {name:?} is no longer reserved",
                    n.full_name
                );
                self.emit(
                    Rule::ReservedRemoved,
                    Category::Source,
                    Severity::Warning,
                    message,
                    Loc::Message(n.full_name.clone()),
                    None,
                );
            }
        }
    }

    fn enum_pair(&mut self, o: &EnumV, n: &EnumV, user: EnumUser) {
        if self.declared(&o.full_name, &n.full_name) {
            let message = format!("enum {} is now {}", o.full_name, n.full_name);
            self.error(
                Rule::EnumRenamed,
                Category::Source,
                message,
                Loc::Enum(n.full_name.clone()),
                None,
            );
        }
        for (writer, w, r) in [(Side::Old, o, n), (Side::New, n, o)] {
            let cat = match writer {
                Side::Old => Category::Canonical,
                Side::New => Category::Forward,
            };
            for (name, number) in &w.values {
                let Some(other) = r.number_of(name).filter(|m| m != number) else {
                    continue;
                };
                let (from, to) = match writer {
                    Side::Old => (*number, other),
                    Side::New => (other, *number),
                };
                let message = format!(
                    "enum value {}.{name} moved from number {from} to {to}",
                    n.full_name
                );
                let subject = user.as_ref().map(|(om, nm, field)| {
                    let (wm, rm) = match writer {
                        Side::Old => (om.clone(), nm.clone()),
                        Side::New => (nm.clone(), om.clone()),
                    };
                    Subject {
                        writer,
                        writer_message: wm,
                        reader_message: rm,
                        witness: Witness::EnumNumber {
                            field: *field,
                            number: *number,
                        },
                    }
                });
                let at = Loc::EnumValue(n.full_name.clone(), name.clone());
                self.error(
                    Rule::EnumValueRenumbered,
                    cat,
                    message.clone(),
                    at.clone(),
                    subject,
                );
                if writer == Side::Old {
                    self.error(Rule::EnumValueRenumbered, Category::Json, message, at, None);
                }
            }
        }
        for (name, number) in &o.values {
            if n.number_of(name).is_some() {
                continue;
            }
            match n.name_of(*number).filter(|nn| o.number_of(nn).is_none()) {
                Some(new_name) => {
                    let message = format!(
                        "enum value {}.{name} ({number}) is now named {new_name}",
                        n.full_name
                    );
                    let at = Loc::EnumValue(n.full_name.clone(), new_name.to_string());
                    for cat in [Category::Json, Category::Source] {
                        self.error(
                            Rule::EnumValueRenamed,
                            cat,
                            message.clone(),
                            at.clone(),
                            None,
                        );
                    }
                }
                None => {
                    let message =
                        format!("enum value {}.{name} ({number}) is removed", o.full_name);
                    let at = Loc::Enum(n.full_name.clone());
                    for cat in [Category::Json, Category::Source] {
                        self.error(
                            Rule::EnumValueRemoved,
                            cat,
                            message.clone(),
                            at.clone(),
                            None,
                        );
                    }
                }
            }
        }
        for (name, number) in &n.values {
            if o.number_of(name).is_none() && o.name_of(*number).is_none() {
                let message = format!(
                    "enum value {}.{name} ({number}) is new: old JSON readers refuse its name",
                    n.full_name
                );
                let at = Loc::EnumValue(n.full_name.clone(), name.clone());
                self.emit(
                    Rule::EnumValueAdded,
                    Category::Json,
                    Severity::Warning,
                    message,
                    at,
                    None,
                );
            }
        }
    }

    /// For each enum pair, the first paired message field holding it on both sides
    /// (singular or repeated): where a counterexample can write a number.
    fn enum_users(&self) -> HashMap<Pair, (String, String, u32)> {
        let mut users = HashMap::new();
        for (om, nm) in &self.msg_seen {
            let (o, n) = (&self.old.messages[om], &self.new.messages[nm]);
            for f in &o.fields {
                let Some(g) = n.field(f.number) else { continue };
                if let (Elem::Enum(a), Elem::Enum(b)) = (&f.elem, &g.elem)
                    && matches!(f.card, Card::Single | Card::Repeated)
                    && f.card == g.card
                {
                    users
                        .entry((a.clone(), b.clone()))
                        .or_insert_with(|| (om.clone(), nm.clone(), f.number));
                }
            }
        }
        users
    }
}

fn wire_scalar(e: &Elem) -> WireScalar {
    match e {
        Elem::Scalar(s) => WireScalar::Scalar(*s),
        // Messages never reach here.
        Elem::Enum(_) | Elem::Message(_) => WireScalar::Enum,
    }
}

fn verdict(c: Compat) -> &'static str {
    match c {
        Compat::Identical => "read as the same values",
        Compat::Narrowed => "refused where the value does not fit",
        Compat::Reinterpreted => "read as other values",
        Compat::WireType => "of another wire type",
    }
}

fn card_word(c: &Card) -> &'static str {
    match c {
        Card::Single => "singular",
        Card::Repeated => "repeated",
        Card::Map(_) => "map",
    }
}

fn elem_word(e: &Elem) -> String {
    match e {
        Elem::Scalar(s) => s.keyword().to_string(),
        Elem::Enum(n) => format!("enum {n}"),
        Elem::Message(n) => format!("message {n}"),
    }
}

fn old_key(f: &FieldV) -> &'static str {
    match f.card {
        Card::Map(k) => k.keyword(),
        _ => "",
    }
}

fn presence_word(p: Presence) -> &'static str {
    match p {
        Presence::Implicit => "implicit",
        Presence::Explicit => "explicit",
        Presence::Required => "required",
    }
}
