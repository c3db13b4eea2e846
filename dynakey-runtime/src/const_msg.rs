//! Messages assembled at compile time: the cross-entity checks of tables
//! and unions and the schema drift checks run as `const` evaluations, and a
//! non-empty message fails the build with its text.

const CAP: usize = 1536;

/// A message built at compile time (empty: the check passed).
#[derive(Debug, Clone, Copy)]
pub struct ConstMessage {
    buf: [u8; CAP],
    len: usize,
}

impl ConstMessage {
    /// No message: the check passed.
    pub const EMPTY: ConstMessage = ConstMessage {
        buf: [0; CAP],
        len: 0,
    };

    /// Appends `s` (cut at the capacity, on a character boundary).
    pub const fn push(mut self, s: &str) -> Self {
        let b = s.as_bytes();
        let mut i = 0;
        // Whole characters only, so the text stays UTF-8 when cut.
        while i < b.len() {
            let width = match b[i] {
                0..=0x7F => 1,
                0xC0..=0xDF => 2,
                0xE0..=0xEF => 3,
                _ => 4,
            };
            if self.len + width > CAP {
                return self;
            }
            let mut k = 0;
            while k < width && i + k < b.len() {
                self.buf[self.len] = b[i + k];
                self.len += 1;
                k += 1;
            }
            i += width;
        }
        self
    }

    /// Whether the check passed.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends the decimal digits of `n`.
    pub const fn push_num(self, n: usize) -> Self {
        let mut digits = [0u8; 20];
        let mut i = digits.len();
        let mut v = n;
        loop {
            i -= 1;
            digits[i] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        match core::str::from_utf8(digits.split_at(i).1) {
            Ok(s) => self.push(s),
            Err(_) => self,
        }
    }

    /// Appends `n` spaces.
    pub const fn pad(mut self, n: usize) -> Self {
        let mut k = 0;
        while k < n && self.len < CAP {
            self.buf[self.len] = b' ';
            self.len += 1;
            k += 1;
        }
        self
    }

    /// Appends `n` carets.
    pub const fn carets(mut self, n: usize) -> Self {
        let mut k = 0;
        while k < n && self.len < CAP {
            self.buf[self.len] = b'^';
            self.len += 1;
            k += 1;
        }
        self
    }

    /// The message; empty when the check passed.
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "DYNA3xx: (message not UTF-8)",
        }
    }
}
