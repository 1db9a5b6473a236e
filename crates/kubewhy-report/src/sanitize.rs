//! Terminal safety: strings from the cluster are data. Escape sequences (CSI, OSC including
//! hyperlinks and title changes, DCS/SOS/PM/APC strings, two-byte ESC sequences), C0 and C1
//! control characters and DEL are removed; tab is kept and newline is kept (multi-line log
//! quotes), carriage return is dropped.

/// Whether `sanitize` would leave `s` as it is.
pub fn is_clean(s: &str) -> bool {
    !s.chars().any(needs_work)
}

pub fn sanitize(s: &str) -> String {
    if !s.chars().any(needs_work) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\u{1b}' => match it.next() {
                // CSI: parameters and intermediates, then one final byte 0x40..=0x7e.
                Some('[') => {
                    for c in it.by_ref() {
                        if ('\u{40}'..='\u{7e}').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (ESC \).
                Some(']' | 'P' | 'X' | '^' | '_') => skip_string(&mut it),
                // Any other escape: the escape and the one character after it.
                _ => {}
            },
            '\u{9b}' => {
                for c in it.by_ref() {
                    if ('\u{40}'..='\u{7e}').contains(&c) {
                        break;
                    }
                }
            }
            '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => skip_string(&mut it),
            '\n' | '\t' => out.push(c),
            c if c.is_control() => {}
            // Bidirectional overrides can make text read differently from what it is.
            '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => {}
            c => out.push(c),
        }
    }
    out
}

fn needs_work(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

fn skip_string(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    while let Some(c) = it.next() {
        match c {
            '\u{7}' | '\u{9c}' => return,
            '\u{1b}' => {
                if it.peek() == Some(&'\\') {
                    it.next();
                }
                return;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::sanitize;

    #[test]
    fn strips_every_kind_of_sequence() {
        assert_eq!(sanitize("plain"), "plain");
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m b"), "ared b");
        assert_eq!(sanitize("x\u{1b}]0;pwned title\u{7}y"), "xy");
        assert_eq!(
            sanitize("\u{1b}]8;;http://evil\u{1b}\\link\u{1b}]8;;\u{1b}\\"),
            "link"
        );
        assert_eq!(sanitize("c1\u{9b}2Jcsi"), "c1csi");
        assert_eq!(sanitize("bell\u{7}\r\nnext\tok\u{7f}"), "bell\nnext\tok");
        assert_eq!(sanitize("\u{1b}Pdcs data\u{1b}\\after"), "after");
        assert_eq!(sanitize("\u{1b}c reset"), " reset");
        assert_eq!(sanitize("rtl\u{202e}txt"), "rtltxt");
        assert_eq!(sanitize("trailing\u{1b}"), "trailing");
    }
}
