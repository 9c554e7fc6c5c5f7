//! The machine Snowball stemmers run on, as Lucene 8's `SnowballProgram` runs them: the
//! word as UTF-16 units (lengths and hops count as Lucene counts them), a cursor that
//! walks forwards or (in backward mode) from the end, the `[`/`]` marks (`bra`, `ket`)
//! of the slice a rule replaces, and the suffix tables (`among`s) matched longest first.

/// A word being stemmed.
pub(super) struct Program {
    /// The word's UTF-16 units.
    pub s: Vec<u16>,
    /// Where the next test looks: before the unit at `cursor` forwards, after the unit
    /// before it backwards.
    pub cursor: usize,
    /// The end of the part forward tests may read.
    pub limit: usize,
    /// The start of the part backward tests may read.
    pub limit_backward: usize,
    /// The start of the marked slice.
    pub bra: usize,
    /// The end of the marked slice.
    pub ket: usize,
}

fn units(s: &str) -> impl Iterator<Item = u16> + Clone + '_ {
    s.encode_utf16()
}

fn member(group: &str, unit: u16) -> bool {
    units(group).any(|g| g == unit)
}

/// The length (in units) and rule of the longest entry of `table` that `matched` finds.
fn longest(table: &[(&str, i8)], matched: impl Fn(&str) -> Option<usize>) -> Option<(usize, i8)> {
    let mut best: Option<(usize, i8)> = None;
    for (entry, rule) in table {
        if let Some(n) = matched(entry) {
            if best.is_none_or(|(m, _)| n > m) {
                best = Some((n, *rule));
            }
        }
    }
    best
}

/// The length of `entry` in units if `s` starts with it.
fn starts_with(s: &[u16], entry: &str) -> Option<usize> {
    let mut n = 0;
    for unit in entry.encode_utf16() {
        if s.get(n) != Some(&unit) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// The length of `entry` in units if `s` ends with it.
fn ends_with(s: &[u16], entry: &str) -> Option<usize> {
    // Compared from the end: an ASCII entry's bytes are its units.
    if entry.is_ascii() {
        let bytes = entry.as_bytes();
        let n = bytes.len();
        return (n <= s.len() && s[s.len() - n..].iter().zip(bytes).all(|(u, b)| *u == u16::from(*b))).then_some(n);
    }
    let n = entry.encode_utf16().count();
    (n <= s.len() && s[s.len() - n..].iter().copied().eq(entry.encode_utf16())).then_some(n)
}

impl Program {
    /// The program for `term`, its cursor at the start.
    pub fn new(term: &str) -> Program {
        let s: Vec<u16> = term.encode_utf16().collect();
        let limit = s.len();
        Program { s, cursor: 0, limit, limit_backward: 0, bra: 0, ket: limit }
    }

    /// The word as it now is.
    pub fn word(&self) -> String {
        String::from_utf16_lossy(&self.s[..self.limit])
    }

    /// Turns to backward mode: tests read from the end down to the cursor.
    pub fn backwards(&mut self) {
        self.limit_backward = self.cursor;
        self.cursor = self.limit;
    }

    /// Back to forward mode from the start of the backward part.
    pub fn forwards(&mut self) {
        self.cursor = self.limit_backward;
    }

    /// The cursor as a distance from the end, which survives deletions before it.
    pub fn mark_b(&self) -> usize {
        self.limit - self.cursor
    }

    /// The cursor put back where [`Program::mark_b`] was taken.
    pub fn restore_b(&mut self, mark: usize) {
        self.cursor = self.limit - mark;
    }

    /// The unit after the cursor, if it is in `group`: steps over it.
    pub fn in_grouping(&mut self, group: &str) -> bool {
        if self.cursor < self.limit && member(group, self.s[self.cursor]) {
            self.cursor += 1;
            return true;
        }
        false
    }

    /// The unit after the cursor, if any and not in `group`: steps over it.
    pub fn out_grouping(&mut self, group: &str) -> bool {
        if self.cursor < self.limit && !member(group, self.s[self.cursor]) {
            self.cursor += 1;
            return true;
        }
        false
    }

    /// The unit before the cursor, if it is in `group`: steps back over it.
    pub fn in_grouping_b(&mut self, group: &str) -> bool {
        if self.cursor > self.limit_backward && member(group, self.s[self.cursor - 1]) {
            self.cursor -= 1;
            return true;
        }
        false
    }

    /// `gopast grouping`: forwards past the first unit in `group` (`out` false) or not in
    /// it (`out` true); false, the cursor anywhere, when there is none.
    pub fn go_past(&mut self, group: &str, out: bool) -> bool {
        loop {
            let found = if out { self.out_grouping(group) } else { self.in_grouping(group) };
            if found {
                return true;
            }
            if self.cursor >= self.limit {
                return false;
            }
            self.cursor += 1;
        }
    }

    /// Whether `literal` follows the cursor: steps over it.
    pub fn eq_s(&mut self, literal: &str) -> bool {
        let n = units(literal).count();
        if self.limit - self.cursor < n || !self.s[self.cursor..self.cursor + n].iter().copied().eq(units(literal)) {
            return false;
        }
        self.cursor += n;
        true
    }

    /// Whether `literal` precedes the cursor: steps back over it.
    pub fn eq_s_b(&mut self, literal: &str) -> bool {
        let n = units(literal).count();
        if self.cursor - self.limit_backward < n
            || !self.s[self.cursor - n..self.cursor].iter().copied().eq(units(literal))
        {
            return false;
        }
        self.cursor -= n;
        true
    }

    /// `among` forwards: the rule of the longest entry of `table` that follows the cursor,
    /// which steps over it; 0 for none.
    pub fn find_among(&mut self, table: &[(&str, i8)]) -> i8 {
        let rest = &self.s[self.cursor..self.limit];
        match longest(table, |entry| starts_with(rest, entry)) {
            Some((n, rule)) => {
                self.cursor += n;
                rule
            }
            None => 0,
        }
    }

    /// `among` backwards: the rule of the longest entry of `table` that precedes the
    /// cursor, which steps back over it; 0 for none.
    pub fn find_among_b(&mut self, table: &[(&str, i8)]) -> i8 {
        let rest = &self.s[self.limit_backward..self.cursor];
        match longest(table, |entry| ends_with(rest, entry)) {
            Some((n, rule)) => {
                self.cursor -= n;
                rule
            }
            None => 0,
        }
    }

    /// `hop n` forwards; false when fewer than `n` units are left.
    pub fn hop(&mut self, n: usize) -> bool {
        if self.limit - self.cursor < n {
            return false;
        }
        self.cursor += n;
        true
    }

    /// `hop n` backwards; false when fewer than `n` units are left.
    pub fn hop_b(&mut self, n: usize) -> bool {
        if self.cursor - self.limit_backward < n {
            return false;
        }
        self.cursor -= n;
        true
    }

    /// `next`: one unit forwards, if any.
    pub fn next(&mut self) -> bool {
        self.hop(1)
    }

    /// `next` in backward mode: one unit back, if any.
    pub fn prev(&mut self) -> bool {
        self.hop_b(1)
    }

    /// Replaces units `from..to` by `text`, moving the limit and the cursor as the
    /// units after them move; returns the change of length.
    fn replace(&mut self, from: usize, to: usize, text: &str) -> isize {
        let new: Vec<u16> = text.encode_utf16().collect();
        let adjustment = new.len() as isize - (to - from) as isize;
        self.s.splice(from..to, new);
        self.limit = (self.limit as isize + adjustment) as usize;
        if self.cursor >= to {
            self.cursor = (self.cursor as isize + adjustment) as usize;
        } else if self.cursor > from {
            self.cursor = from;
        }
        adjustment
    }

    /// `<- text`: the marked slice replaced.
    pub fn slice_from(&mut self, text: &str) {
        self.replace(self.bra, self.ket, text);
    }

    /// `delete`: the marked slice removed.
    pub fn slice_del(&mut self) {
        self.slice_from("");
    }
}
