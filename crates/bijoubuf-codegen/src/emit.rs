//! Token emission shared by messages and enums: one package at a time, doc comments,
//! user attributes, runtime paths.

use bijoubuf_schema::{Comments, EnumDef, MessageDef};
use proc_macro2::{Ident, Span, TokenStream, TokenTree};
use quote::quote;

use crate::Error;
use crate::context::Context;

/// Emits one package's items from inside `modules` (message modules below the package).
pub(crate) struct Emitter<'c> {
    pub(crate) ctx: &'c Context<'c>,
    pub(crate) package: String,
    pub(crate) modules: Vec<String>,
}

impl<'c> Emitter<'c> {
    pub(crate) fn new(ctx: &'c Context<'c>, package: &str) -> Self {
        Emitter {
            ctx,
            package: package.to_string(),
            modules: Vec::new(),
        }
    }

    /// The same emitter one message module further down.
    pub(crate) fn child(&self, module: &str) -> Emitter<'c> {
        let mut modules = self.modules.clone();
        modules.push(module.to_string());
        Emitter {
            ctx: self.ctx,
            package: self.package.clone(),
            modules,
        }
    }

    /// The path of a message or enum from here.
    pub(crate) fn path_to(&self, full_name: &str) -> TokenStream {
        self.ctx.path_to(full_name, &self.package, &self.modules)
    }

    /// Whether schema comments are copied for this element.
    pub(crate) fn comments_on(&self, full_name: &str) -> bool {
        !self.ctx.opts.no_comments.matches(full_name)
    }

    /// The runtime crate: `::bijoubuf`, or `crate` inside the runtime itself.
    pub(crate) fn rt(&self) -> TokenStream {
        if self.ctx.opts.inside_runtime {
            quote!(crate)
        } else {
            quote!(::bijoubuf)
        }
    }

    /// The runtime's hidden module (`__private`, the building blocks of the contract) as
    /// generated code names it: [`HIDDEN`], the alias [`hidden_alias`] declares.
    pub(crate) fn hidden(&self) -> TokenStream {
        let id = Ident::new(HIDDEN, Span::call_site());
        quote!(#id)
    }

    /// A generated type's in-place reads, owned type and twin alike: `__decode_push`,
    /// `__decode_some`, and `__decode_into` around `into_body`. A nested message in a
    /// vector or an option is read where it lies (the default, then `__decode_into`):
    /// built in locals and assembled, it was copied whole into its parent once more per
    /// level.
    pub(crate) fn decode_in_place(&self, into_body: TokenStream) -> TokenStream {
        let bb = self.hidden();
        let alloc = self.alloc();
        let into = self.decode_into(into_body);
        quote! {
            fn __decode_push(r: &mut #bb::Reader<'a>, out: &mut #alloc::vec::Vec<Self>) -> #bb::Result<()> {
                #bb::push_in_place(r, out)
            }

            fn __decode_some(r: &mut #bb::Reader<'a>, v: &mut ::core::option::Option<Self>) -> #bb::Result<()> {
                #bb::some_in_place(r, v)
            }

            #into
        }
    }

    /// `__decode_into` around `into_body` (the walk into `self`'s members).
    pub(crate) fn decode_into(&self, into_body: TokenStream) -> TokenStream {
        let bb = self.hidden();
        quote! {
            fn __decode_into(&mut self, r: &mut #bb::Reader<'a>) -> #bb::Result<()> {
                #into_body
                #bb::Ok(())
            }
        }
    }

    /// The crate `String`, `Vec`, `Box` and `BTreeMap` come from.
    pub(crate) fn alloc(&self) -> TokenStream {
        if self.ctx.opts.inside_runtime || self.ctx.opts.no_std {
            quote!(::alloc)
        } else {
            quote!(::std)
        }
    }

    /// Every top-level item of the package, in declaration order per file.
    pub(crate) fn items(
        &self,
        messages: &[&MessageDef],
        enums: &[&EnumDef],
    ) -> Result<TokenStream, Error> {
        let mut out = TokenStream::new();
        for m in messages {
            out.extend(self.message(m)?);
        }
        for e in enums {
            out.extend(self.enumeration(e)?);
        }
        Ok(out)
    }
}

/// The alias generated code names the runtime's hidden module by, declared by a private
/// `use` in each module that needs it (the package's file, a message's module of nested
/// types), so it works however the file is included and nested. No schema name can
/// produce it: type and module names are case-converted (which drops leading
/// underscores; `_` is only prefixed to a leading digit) and keywords are suffixed.
pub(crate) const HIDDEN: &str = "__bb";

/// `items` with the alias of the runtime's hidden module declared before them when they
/// use it (`use ::bijoubuf::__private as __bb;`; `rt` is the runtime crate's path).
pub(crate) fn hidden_alias(rt: &TokenStream, items: TokenStream) -> TokenStream {
    if !mentions(&items, HIDDEN) {
        return items;
    }
    let id = Ident::new(HIDDEN, Span::call_site());
    quote! {
        use #rt::__private as #id;
        #items
    }
}

/// Whether identifier `name` occurs in `tokens`, nested modules included (a module of
/// nested types exists only beside a message, whose impls use the alias anyway).
fn mentions(tokens: &TokenStream, name: &str) -> bool {
    tokens.clone().into_iter().any(|t| match t {
        TokenTree::Ident(i) => i == name,
        TokenTree::Group(g) => mentions(&g.stream(), name),
        _ => false,
    })
}

/// `#[doc]` attributes from schema comments (leading, then trailing as its own
/// paragraph), or `fallback` when there are none or they are disabled.
///
/// Comments are prose to rustdoc, which would run indented blocks and bare fences as
/// doctests; such comments are wrapped in a `text` fence so they render verbatim.
pub(crate) fn doc_attrs(comments: &Comments, enabled: bool, fallback: &str) -> TokenStream {
    let mut lines: Vec<String> = Vec::new();
    if enabled {
        for block in [&comments.leading, &comments.trailing]
            .into_iter()
            .flatten()
        {
            if !lines.is_empty() {
                lines.push(String::new());
            }
            let mut block_lines: Vec<String> = block.lines().map(str::to_string).collect();
            while block_lines.last().is_some_and(|l| l.trim().is_empty()) {
                block_lines.pop();
            }
            lines.extend(block_lines);
        }
    }
    if lines.iter().all(|l| l.trim().is_empty()) {
        lines = vec![format!(" {fallback}")];
    } else if lines.iter().any(|l| needs_fence(l)) {
        let mut fenced = vec![" ````text".to_string()];
        fenced.extend(lines);
        fenced.push(" ````".to_string());
        lines = fenced;
    } else {
        lines = escape_markdown(&lines.join("\n"))
            .split('\n')
            .map(str::to_string)
            .collect();
    }
    let lines = lines.iter().map(|l| {
        // A doc line keeps one leading space so it prints as `/// text`.
        let l = doc_text(l);
        if l.is_empty() || l.starts_with(' ') {
            l
        } else {
            format!(" {l}")
        }
    });
    quote!(#(#[doc = #lines])*)
}

/// Text safe inside a doc comment: tabs become spaces (clippy::tabs_in_doc_comments)
/// and other control characters (a bare CR is a compile error there) are escaped.
fn doc_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\t' {
            out.push_str("    ");
        } else if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// A comment (its lines joined by `\n`) made safe for rustdoc's lints, which every
/// user's `cargo doc` runs on generated code: square brackets escaped, so that schema
/// prose such as `Status: [Alpha]` is not read as an intra-doc link to an item that does
/// not exist (`broken_intra_doc_links`); `<` escaped, so that `<version>` is not an
/// unclosed HTML tag (`invalid_html_tags`); bare URLs put in angle brackets
/// (`bare_urls`). Kept as written: markdown inline links (`[text](url)`, the text
/// possibly over several lines of one paragraph), autolinks (`<https://…>`) and code
/// spans, where a backslash would print. Never adds or removes a line break.
fn escape_markdown(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    // The length of the backtick run that opened the current code span, if in one.
    let mut code: Option<usize> = None;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'`' {
            let run = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            match code {
                // A span opens only where a run as long closes it later in the
                // paragraph; else the backticks are text.
                None if closes(&bytes[i + run..], run) => code = Some(run),
                None => {}
                Some(open) if open == run => code = None,
                Some(_) => {}
            }
            out.push_str(&text[i..i + run]);
            i += run;
            continue;
        }
        if code.is_none() {
            let rest = &text[i..];
            let kept = match c {
                b'[' => inline_link(rest),
                b'<' if is_url(&rest[1..]) => autolink(rest),
                _ => None,
            };
            if let Some(len) = kept {
                out.push_str(&rest[..len]);
                i += len;
                continue;
            }
            match c {
                // Already a markdown escape: kept, and what it escapes with it.
                b'\\' if bytes.get(i + 1).is_some_and(u8::is_ascii_punctuation) => {
                    out.push_str(&text[i..i + 2]);
                    i += 2;
                    continue;
                }
                b'[' | b']' | b'<' => {
                    out.push('\\');
                    out.push(c as char);
                    i += 1;
                    continue;
                }
                b'h' if is_url(rest)
                    && !text[..i].ends_with(|p: char| p.is_alphanumeric() || p == '/') =>
                {
                    let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
                    let url = rest[..end]
                        .trim_end_matches(['.', ',', ';', ':', '!', '?', ')', '\'', '"']);
                    out.push('<');
                    out.push_str(url);
                    out.push('>');
                    i += url.len();
                    continue;
                }
                _ => {}
            }
        }
        // Copy the whole character (the bytes looked at above are ASCII, so a
        // multi-byte character is never split).
        let len = text[i..].chars().next().map_or(1, char::len_utf8);
        out.push_str(&text[i..i + len]);
        i += len;
    }
    out
}

/// The length of the autolink `<url>` that `rest` starts with, if it does: the URL runs
/// to a `>` with no space before it.
fn autolink(rest: &str) -> Option<usize> {
    let end = rest.find(|c: char| c == '>' || c.is_whitespace())?;
    (rest.as_bytes()[end] == b'>').then_some(end + 1)
}

/// Whether `text` starts with an `http` or `https` URL.
fn is_url(text: &str) -> bool {
    text.starts_with("https://") || text.starts_with("http://")
}

/// The length of the markdown inline link `[text](target)` that `rest` starts with, if
/// it does (no bracket and no blank line inside the text, no space inside the target,
/// which may begin on the next line).
fn inline_link(rest: &str) -> Option<usize> {
    let close = rest[1..].find(']')? + 1;
    let text = &rest[1..close];
    if text.contains('[')
        || text.split('\n').skip(1).any(|l| l.trim().is_empty())
        || rest.as_bytes().get(close + 1) != Some(&b'(')
    {
        return None;
    }
    let end = rest[close + 2..].find(')')? + close + 2;
    // The target may start on the next line; it holds no space itself.
    let target = rest[close + 2..end].trim();
    if target.is_empty() || target.contains(char::is_whitespace) {
        return None;
    }
    Some(end + 1)
}

/// Whether `rest` holds a run of exactly `run` backticks before the paragraph ends.
fn closes(rest: &[u8], run: usize) -> bool {
    let mut i = 0;
    while i < rest.len() {
        if rest[i] == b'`' {
            let n = rest[i..].iter().take_while(|&&b| b == b'`').count();
            if n == run {
                return true;
            }
            i += n;
        } else if rest[i] == b'\n' && blank_line_follows(&rest[i + 1..]) {
            return false;
        } else {
            i += 1;
        }
    }
    false
}

/// Whether `rest` (just after a line break) starts with a line of spaces only.
fn blank_line_follows(rest: &[u8]) -> bool {
    rest.iter()
        .take_while(|&&b| b != b'\n')
        .all(|b| b.is_ascii_whitespace())
}

/// Lines rustdoc would treat as code: indented four or more (after the usual single
/// space) or a fence.
fn needs_fence(line: &str) -> bool {
    let body = line.strip_prefix(' ').unwrap_or(line);
    body.starts_with("    ") || body.starts_with('\t') || body.trim_start().starts_with("```")
}

/// Parse the attributes configured for `full_name` (`#[...]` text) into tokens.
pub(crate) fn attrs_for(
    table: &[(String, String)],
    full_name: &str,
) -> Result<Vec<TokenStream>, Error> {
    let mut out = Vec::new();
    for (path, attr) in table {
        if !crate::options::path_matches(path, full_name) {
            continue;
        }
        let tokens: TokenStream =
            attr.parse()
                .map_err(|e: proc_macro2::LexError| Error::Attribute {
                    path: path.clone(),
                    attribute: attr.clone(),
                    message: e.to_string(),
                })?;
        let parsed =
            syn::parse::Parser::parse2(syn::Attribute::parse_outer, tokens).map_err(|e| {
                Error::Attribute {
                    path: path.clone(),
                    attribute: attr.clone(),
                    message: e.to_string(),
                }
            })?;
        out.extend(parsed.into_iter().map(|a| quote!(#a)));
    }
    Ok(out)
}
