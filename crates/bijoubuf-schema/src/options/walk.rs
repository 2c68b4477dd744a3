//! Walks the syntax tree and the model side by side, interpreting each element's options.

use super::{Interpreter, Target};
use crate::ast;
use crate::check::join;
use crate::model::{EnumDef, FieldDef, FileDef, MessageDef};

impl Interpreter<'_> {
    pub(super) fn file(&mut self, model: &mut FileDef) {
        let ast = &self.file.ast;
        let package = model.package.clone();
        let (defs, bytes) = self.options(&package, Target::File, &ast.options);
        model.options = defs;
        model.encoded_options = bytes;
        for (m, def) in ast.messages.iter().zip(model.messages.iter_mut()) {
            self.message(m, def);
        }
        for (e, def) in ast.enums.iter().zip(model.enums.iter_mut()) {
            self.enumeration(&package, e, def);
        }
        self.extensions(&package, &ast.extends, &mut model.extensions);
        for (s, def) in ast.services.iter().zip(model.services.iter_mut()) {
            let full = def.full_name.clone();
            let (defs, bytes) = self.options(&full, Target::Service, &s.options);
            def.options = defs;
            def.encoded_options = bytes;
            for (m, mdef) in s.methods.iter().zip(def.methods.iter_mut()) {
                let (defs, bytes) = self.options(&full, Target::Method, &m.options);
                mdef.options = defs;
                mdef.encoded_options = bytes;
            }
        }
    }

    fn field(&mut self, scope: &str, f: &ast::Field, def: &mut FieldDef) {
        let (defs, bytes) = self.options(scope, Target::Field, &f.options);
        def.options = defs;
        def.encoded_options_set(bytes);
    }

    fn extensions(&mut self, scope: &str, blocks: &[ast::Extend], defs: &mut [FieldDef]) {
        for f in blocks.iter().flat_map(|x| &x.fields) {
            let full = join(scope, &f.name.name);
            if let Some(def) = defs.iter_mut().find(|d| d.full_name == full) {
                self.field(scope, f, def);
            }
        }
    }

    fn message(&mut self, m: &ast::Message, def: &mut MessageDef) {
        let full = def.full_name.clone();
        let (defs, bytes) = self.options(&full, Target::Message, &m.options);
        def.options = defs;
        def.encoded_options = bytes;
        for (i, f) in m.fields.iter().enumerate() {
            if let Some(fd) = def.fields.iter_mut().find(|d| d.index == i) {
                self.field(&full, f, fd);
            }
        }
        let declared = def.oneofs.iter_mut().filter(|o| !o.synthetic);
        for (o, odef) in m.oneofs.iter().zip(declared) {
            let (defs, bytes) = self.options(&full, Target::Oneof, &o.options);
            odef.options = defs;
            odef.encoded_options = bytes;
        }
        for r in &m.extension_ranges {
            let (defs, bytes) = self.options(&full, Target::ExtensionRange, &r.options);
            for _ in &r.ranges {
                def.extension_range_options.push(bytes.clone());
                def.extension_range_option_defs
                    .push((r.options_span, defs.clone()));
            }
        }
        for (n, ndef) in m.messages.iter().zip(def.messages.iter_mut()) {
            self.message(n, ndef);
        }
        for (e, edef) in m.enums.iter().zip(def.enums.iter_mut()) {
            self.enumeration(&full, e, edef);
        }
        self.extensions(&full, &m.extends, &mut def.extensions);
    }

    fn enumeration(&mut self, scope: &str, e: &ast::Enum, def: &mut EnumDef) {
        let full = def.full_name.clone();
        let (defs, bytes) = self.options(&full, Target::Enum, &e.options);
        def.options = defs;
        def.encoded_options = bytes;
        for (v, vdef) in e.values.iter().zip(def.values.iter_mut()) {
            let (defs, bytes) = self.options(scope, Target::EnumValue, &v.options);
            vdef.options = defs;
            vdef.encoded_options = bytes;
        }
    }
}

impl FieldDef {
    fn encoded_options_set(&mut self, bytes: Vec<u8>) {
        self.encoded_options = bytes;
    }
}

/// Whether any option value of the file expands a `google.protobuf.Any`
/// (`[type.googleapis.com/pkg.Msg] { … }`): its message may be one no option otherwise
/// reaches, so the index then takes in every message.
pub(super) fn expands_any(file: &ast::File) -> bool {
    fn value(v: &ast::Value) -> bool {
        match &v.kind {
            ast::ValueKind::Aggregate(fields) => fields
                .iter()
                .any(|f| (f.is_extension && f.name.contains('/')) || value(&f.value)),
            ast::ValueKind::List(items) => items.iter().any(value),
            _ => false,
        }
    }
    fn stmts(s: &[ast::OptionStmt]) -> bool {
        s.iter().any(|o| value(&o.value))
    }
    fn fields(fs: &[ast::Field]) -> bool {
        fs.iter().any(|f| stmts(&f.options))
    }
    fn enumeration(e: &ast::Enum) -> bool {
        stmts(&e.options) || e.values.iter().any(|v| stmts(&v.options))
    }
    fn message(m: &ast::Message) -> bool {
        stmts(&m.options)
            || fields(&m.fields)
            || m.oneofs.iter().any(|o| stmts(&o.options))
            || m.extension_ranges.iter().any(|r| stmts(&r.options))
            || m.extends.iter().any(|x| fields(&x.fields))
            || m.enums.iter().any(enumeration)
            || m.messages.iter().any(message)
    }
    stmts(&file.options)
        || file.messages.iter().any(message)
        || file.enums.iter().any(enumeration)
        || file.extends.iter().any(|x| fields(&x.fields))
        || file
            .services
            .iter()
            .any(|s| stmts(&s.options) || s.methods.iter().any(|m| stmts(&m.options)))
}
