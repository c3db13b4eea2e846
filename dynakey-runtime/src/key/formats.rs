//! The text forms of key parts. One trait per template format:
//!
//! | format      | trait          | example                        |
//! |-------------|----------------|--------------------------------|
//! | (none)      | [`KeyText`]    | `alice`, `2026-07-16`, uuid    |
//! | `d<w>`      | [`KeyPadded`]  | `d6`: 42 → `000042`            |
//! | `n<w>`      | [`KeySigned`]  | `n4`: −10 → `-9990`, 3 → `00003` |
//! | `n<w>.<p>`  | [`KeyDecimal`] | `n8.2`: 40 → `000000040.00`    |
//! | `rev`       | [`KeyReverse`] | newest instant first           |
//!
//! Signed formats write a non-negative value as `0` followed by `w` digits and
//! a negative one as `-` followed by the `w`-digit complement `10^w - |v|`:
//! `-` sorts before `0`, and a larger magnitude gives a smaller complement,
//! so −10 (`-9990`) < −2 (`-9998`) < 0 (`00000`) < 3 (`00003`).

use std::fmt::Write as _;

use rust_decimal::Decimal;
mod dates;
use uuid::Uuid;

use crate::error::KeyFormatReason;

/// A value refused by a key format, before the template context is added.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPartError {
    /// The value as text.
    pub value: String,
    /// Why it was refused.
    pub reason: KeyFormatReason,
}

impl KeyPartError {
    /// A refusal of `value` for `reason`.
    pub fn new(value: impl Into<String>, reason: KeyFormatReason) -> Self {
        Self {
            value: value.into(),
            reason,
        }
    }

    fn malformed(value: &str, expected: &str) -> Self {
        Self::new(
            value,
            KeyFormatReason::Malformed {
                expected: expected.to_owned(),
            },
        )
    }
}

/// Types that can stand in a key template without a format: `<field>`.
///
/// ```
/// use dynakey_runtime::KeyText;
/// let mut out = String::new();
/// time::macros::date!(2026 - 07 - 16).write_text(&mut out).unwrap();
/// assert_eq!(out, "2026-07-16");
/// assert_eq!(time::Date::parse_text("2026-07-16").unwrap(), time::macros::date!(2026 - 07 - 16));
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA102: `{Self}` cannot be part of a key",
    label = "this field is a placeholder of a key template, but `{Self}` has no key text form",
    note = "key parts are String, integers (with a width such as `d6` or `n4` in sort keys), bool, rust_decimal::Decimal, uuid::Uuid, time::Date, time::OffsetDateTime, and unit enums with #[derive(DynamoValue)]"
)]
pub trait KeyText: Sized {
    /// The length in bytes of every text form, when it is fixed (a uuid's
    /// 36, a date's 10). A fixed-width field ends where its width says; a
    /// field of varying width is escaped so that its delimiter ends it (see
    /// [`KeyWriter`](super::KeyWriter)).
    const WIDTH: Option<usize> = None;
    /// Appends the text form.
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError>;
    /// Reads the text form back.
    fn parse_text(s: &str) -> Result<Self, KeyPartError>;
    /// The [`KeyForm`](super::writer::KeyForm) of this format, what derived
    /// code names: a call through the trait, so that a type without it is
    /// one error with no note of where a bound was declared.
    #[doc(hidden)]
    #[inline]
    fn text_form() -> super::writer::KeyForm<Self> {
        super::writer::text::<Self>()
    }
}

/// Integers under `d<w>`: zero-padded to `w` digits, never negative.
///
/// ```
/// use dynakey_runtime::KeyPadded;
/// let mut out = String::new();
/// 42i32.write_padded(6, &mut out).unwrap();
/// assert_eq!(out, "000042");
/// assert!((-1i32).write_padded(6, &mut String::new()).is_err());
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA107: format `d<w>` does not fit `{Self}`",
    label = "`d<w>` zero-pads an integer",
    note = "use `d<w>` on integers; a decimal or float takes `n<w>.<p>`"
)]
pub trait KeyPadded: Sized {
    /// Appends exactly `width` digits.
    fn write_padded(&self, width: u32, out: &mut String) -> Result<(), KeyPartError>;
    /// Reads `width` digits back.
    fn parse_padded(s: &str, width: u32) -> Result<Self, KeyPartError>;
    /// The [`KeyForm`](super::writer::KeyForm) of this format, what derived
    /// code names: a call through the trait, so that a type without it is
    /// one error with no note of where a bound was declared.
    #[doc(hidden)]
    #[inline]
    fn padded_form() -> super::writer::KeyForm<Self> {
        super::writer::padded::<Self>()
    }
}

/// Integers under `n<w>`: a sign character and `w` digits, ordered by value.
///
/// ```
/// use dynakey_runtime::KeySigned;
/// let text = |v: i32| { let mut s = String::new(); v.write_signed(4, &mut s).unwrap(); s };
/// assert!(text(-10) < text(-2) && text(-2) < text(0) && text(0) < text(3));
/// assert_eq!(i32::parse_signed(&text(-10), 4).unwrap(), -10);
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA107: format `n<w>` does not fit `{Self}`",
    label = "`n<w>` writes a signed integer",
    note = "use `n<w>` on integers and `n<w>.<p>` on rust_decimal::Decimal or floats"
)]
pub trait KeySigned: Sized {
    /// Appends `w + 1` characters.
    fn write_signed(&self, width: u32, out: &mut String) -> Result<(), KeyPartError>;
    /// Reads them back.
    fn parse_signed(s: &str, width: u32) -> Result<Self, KeyPartError>;
    /// The [`KeyForm`](super::writer::KeyForm) of this format, what derived
    /// code names: a call through the trait, so that a type without it is
    /// one error with no note of where a bound was declared.
    #[doc(hidden)]
    #[inline]
    fn signed_form() -> super::writer::KeyForm<Self> {
        super::writer::signed::<Self>()
    }
}

/// Decimals under `n<w>.<p>`: `w` integer digits and `p` decimal places,
/// signed like [`KeySigned`].
///
/// ```
/// use dynakey_runtime::KeyDecimal;
/// use rust_decimal::Decimal;
/// let text = |v: Decimal| { let mut s = String::new(); v.write_decimal(8, 2, &mut s).unwrap(); s };
/// assert_eq!(text(Decimal::new(40, 0)), "000000040.00");
/// assert!(text(Decimal::new(-1550, 2)) < text(Decimal::new(40, 0)));
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA107: format `n<w>.<p>` does not fit `{Self}`",
    label = "`n<w>.<p>` writes a signed decimal",
    note = "use `n<w>.<p>` on rust_decimal::Decimal, f32 or f64"
)]
pub trait KeyDecimal: Sized {
    /// Appends `w + p + 2` characters.
    fn write_decimal(&self, width: u32, places: u32, out: &mut String) -> Result<(), KeyPartError>;
    /// Reads them back.
    fn parse_decimal(s: &str, width: u32, places: u32) -> Result<Self, KeyPartError>;
    /// The [`KeyForm`](super::writer::KeyForm) of this format, what derived
    /// code names: a call through the trait, so that a type without it is
    /// one error with no note of where a bound was declared.
    #[doc(hidden)]
    #[inline]
    fn decimal_form() -> super::writer::KeyForm<Self> {
        super::writer::decimal::<Self>()
    }
}

/// Instants under `rev`: `9999999999999 − epoch milliseconds`, 13 digits, so
/// the newest sorts first inside a composite key. Keeps milliseconds.
///
/// ```
/// use dynakey_runtime::KeyReverse;
/// let text = |v: time::OffsetDateTime| { let mut s = String::new(); v.write_reverse(&mut s).unwrap(); s };
/// let old = time::macros::datetime!(2020-01-01 0:00 UTC);
/// let new = time::macros::datetime!(2026-01-01 0:00 UTC);
/// assert!(text(new) < text(old));
/// ```
#[diagnostic::on_unimplemented(
    message = "DYNA107: format `rev` does not fit `{Self}`",
    label = "`rev` reverses a timestamp",
    note = "use `rev` on time::OffsetDateTime, or on an i64/u64 of epoch milliseconds"
)]
pub trait KeyReverse: Sized {
    /// Appends 13 digits.
    fn write_reverse(&self, out: &mut String) -> Result<(), KeyPartError>;
    /// Reads them back.
    fn parse_reverse(s: &str) -> Result<Self, KeyPartError>;
    /// The [`KeyForm`](super::writer::KeyForm) of this format, what derived
    /// code names: a call through the trait, so that a type without it is
    /// one error with no note of where a bound was declared.
    #[doc(hidden)]
    #[inline]
    fn reverse_form() -> super::writer::KeyForm<Self> {
        super::writer::reverse::<Self>()
    }
}

const REV_MAX: i128 = 9_999_999_999_999;

/// The text as it is: the template's writer escapes it (or, for raw text,
/// refuses control characters).
#[diagnostic::do_not_recommend]
impl KeyText for String {
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(self);
        Ok(())
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        Ok(s.to_owned())
    }
}

#[diagnostic::do_not_recommend]
impl KeyText for bool {
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        out.push_str(if *self { "true" } else { "false" });
        Ok(())
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        match s {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(KeyPartError::malformed(s, "true or false")),
        }
    }
}

/// Pushes `v` zero-padded to `width` digits (v must fit). Any width works:
/// `d45` pads with zeros beyond the 39 digits a u128 can have.
fn push_digits(out: &mut String, v: u128, width: u32) {
    let mut buf = [b'0'; 39];
    let mut n = v;
    let mut i = buf.len();
    while n > 0 {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
    }
    let digits = buf.len() - i;
    for _ in digits..width as usize {
        out.push('0');
    }
    // The digits are ASCII, so this cannot fail.
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or_default());
}

fn digits_of(v: u128) -> u32 {
    if v == 0 {
        1
    } else {
        v.ilog10() + 1
    }
}

fn parse_digits(s: &str, width: u32) -> Result<u128, KeyPartError> {
    if s.len() != width as usize || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(KeyPartError::malformed(s, &format!("{width} digits")));
    }
    s.parse::<u128>()
        .map_err(|_| KeyPartError::malformed(s, &format!("{width} digits")))
}

fn pow10(w: u32) -> Option<u128> {
    10u128.checked_pow(w)
}

/// Writes a signed scaled integer in `digits` digits (see the module docs).
fn write_signed_i128(
    v: i128,
    digits: u32,
    shown: &dyn Fn() -> String,
    out: &mut String,
) -> Result<(), KeyPartError> {
    let limit = pow10(digits)
        .ok_or_else(|| KeyPartError::new(shown(), KeyFormatReason::TooWide { width: digits }))?;
    let mag = v.unsigned_abs();
    if mag >= limit {
        return Err(KeyPartError::new(
            shown(),
            KeyFormatReason::TooWide { width: digits },
        ));
    }
    if v < 0 {
        out.push('-');
        push_digits(out, limit - mag, digits);
    } else {
        out.push('0');
        push_digits(out, mag, digits);
    }
    Ok(())
}

fn parse_signed_i128(s: &str, digits: u32) -> Result<i128, KeyPartError> {
    let limit = pow10(digits).ok_or_else(|| KeyPartError::malformed(s, "a narrower width"))?;
    let (sign, rest) = s
        .split_at_checked(1)
        .ok_or_else(|| KeyPartError::malformed(s, "a sign"))?;
    let n = parse_digits(rest, digits)?;
    match sign {
        "0" => Ok(n as i128),
        "-" if n > 0 => Ok(-((limit - n) as i128)),
        _ => Err(KeyPartError::malformed(s, "`0` or `-` followed by digits")),
    }
}

macro_rules! integers {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl KeyText for $t {
            fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
                let _ = write!(out, "{}", self);
                Ok(())
            }
            fn parse_text(s: &str) -> Result<Self, KeyPartError> {
                s.parse().map_err(|_| KeyPartError::malformed(s, concat!("a ", stringify!($t))))
            }
        }

        #[diagnostic::do_not_recommend]
        impl KeyPadded for $t {
            fn write_padded(&self, width: u32, out: &mut String) -> Result<(), KeyPartError> {
                let v = *self as i128;
                if v < 0 {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::Negative { width }));
                }
                if digits_of(v as u128) > width {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::TooWide { width }));
                }
                push_digits(out, v as u128, width);
                Ok(())
            }
            fn parse_padded(s: &str, width: u32) -> Result<Self, KeyPartError> {
                let n = parse_digits(s, width)?;
                <$t>::try_from(n).map_err(|_| KeyPartError::malformed(s, concat!("a ", stringify!($t))))
            }
        }

        #[diagnostic::do_not_recommend]
        impl KeySigned for $t {
            fn write_signed(&self, width: u32, out: &mut String) -> Result<(), KeyPartError> {
                write_signed_i128(*self as i128, width, &|| self.to_string(), out)
            }
            fn parse_signed(s: &str, width: u32) -> Result<Self, KeyPartError> {
                let n = parse_signed_i128(s, width)?;
                <$t>::try_from(n).map_err(|_| KeyPartError::malformed(s, concat!("a ", stringify!($t))))
            }
        }

        #[diagnostic::do_not_recommend]
        impl KeyReverse for $t {
            fn write_reverse(&self, out: &mut String) -> Result<(), KeyPartError> {
                let v = *self as i128;
                if !(0..=REV_MAX).contains(&v) {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::TooWide { width: 13 }));
                }
                push_digits(out, (REV_MAX - v) as u128, 13);
                Ok(())
            }
            fn parse_reverse(s: &str) -> Result<Self, KeyPartError> {
                let n = parse_digits(s, 13)? as i128;
                <$t>::try_from(REV_MAX - n).map_err(|_| KeyPartError::malformed(s, concat!("a ", stringify!($t))))
            }
        }
    )*};
}

integers!(i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, usize);

// u128 can exceed i128; it gets text and padded forms through its own impls.
#[diagnostic::do_not_recommend]
impl KeyText for u128 {
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        let _ = write!(out, "{self}");
        Ok(())
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        s.parse().map_err(|_| KeyPartError::malformed(s, "a u128"))
    }
}

#[diagnostic::do_not_recommend]
impl KeyPadded for u128 {
    fn write_padded(&self, width: u32, out: &mut String) -> Result<(), KeyPartError> {
        if digits_of(*self) > width {
            return Err(KeyPartError::new(
                self.to_string(),
                KeyFormatReason::TooWide { width },
            ));
        }
        push_digits(out, *self, width);
        Ok(())
    }
    fn parse_padded(s: &str, width: u32) -> Result<Self, KeyPartError> {
        parse_digits(s, width)
    }
}

#[diagnostic::do_not_recommend]
impl KeyText for Decimal {
    /// Normalized (`1.50` and `1.5` are one value, so one key; `-0` is `0`).
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        let _ = write!(out, "{}", self.normalize());
        Ok(())
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        s.parse()
            .map_err(|_| KeyPartError::malformed(s, "a decimal"))
    }
}

/// Writes a scaled integer as `sign digits . places`.
fn write_scaled(
    scaled: i128,
    width: u32,
    places: u32,
    shown: &dyn Fn() -> String,
    out: &mut String,
) -> Result<(), KeyPartError> {
    let start = out.len();
    write_signed_i128(scaled, width + places, shown, out).map_err(|e| match e.reason {
        KeyFormatReason::TooWide { .. } => {
            KeyPartError::new(shown(), KeyFormatReason::TooWide { width })
        }
        _ => e,
    })?;
    if places > 0 {
        out.insert(start + 1 + width as usize, '.');
    }
    Ok(())
}

fn parse_scaled(s: &str, width: u32, places: u32) -> Result<i128, KeyPartError> {
    let expected = || format!("a sign, {width} digits, `.` and {places} digits");
    if places == 0 {
        return parse_signed_i128(s, width);
    }
    let dot = 1 + width as usize;
    if s.len() != dot + 1 + places as usize || s.as_bytes()[dot] != b'.' {
        return Err(KeyPartError::malformed(s, &expected()));
    }
    let joined = format!("{}{}", &s[..dot], &s[dot + 1..]);
    parse_signed_i128(&joined, width + places).map_err(|_| KeyPartError::malformed(s, &expected()))
}

#[diagnostic::do_not_recommend]
impl KeyDecimal for Decimal {
    fn write_decimal(&self, width: u32, places: u32, out: &mut String) -> Result<(), KeyPartError> {
        let scale = self.scale();
        let mantissa = self.mantissa();
        let scaled = if scale <= places {
            pow10(places - scale).and_then(|p| mantissa.checked_mul(p as i128))
        } else {
            let p = pow10(scale - places).unwrap_or(u128::MAX) as i128;
            if mantissa % p != 0 {
                return Err(KeyPartError::new(
                    self.to_string(),
                    KeyFormatReason::TooPrecise { places },
                ));
            }
            Some(mantissa / p)
        };
        let scaled = scaled.ok_or_else(|| {
            KeyPartError::new(self.to_string(), KeyFormatReason::TooWide { width })
        })?;
        write_scaled(scaled, width, places, &|| self.to_string(), out)
    }
    fn parse_decimal(s: &str, width: u32, places: u32) -> Result<Self, KeyPartError> {
        // A Decimal holds 96 bits and 28 places: `9.999` under `n1.28` is
        // 99990000000000000000000000000 at scale 28, too big until its
        // trailing zeros are dropped.
        let (mut scaled, mut scale) = (parse_scaled(s, width, places)?, places);
        loop {
            match Decimal::try_from_i128_with_scale(scaled, scale) {
                Ok(d) => return Ok(d),
                Err(_) if scale > 0 && scaled % 10 == 0 => {
                    scaled /= 10;
                    scale -= 1;
                }
                Err(_) => return Err(KeyPartError::malformed(s, "a decimal")),
            }
        }
    }
}

macro_rules! floats {
    ($($t:ty),*) => {$(
        #[diagnostic::do_not_recommend]
        impl KeyText for $t {
            fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
                if !self.is_finite() {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::NotFinite));
                }
                // -0.0 == 0.0, so both are written `0`.
                let v = if *self == 0.0 { 0.0 } else { *self };
                let _ = write!(out, "{v}");
                Ok(())
            }
            fn parse_text(s: &str) -> Result<Self, KeyPartError> {
                s.parse().map_err(|_| KeyPartError::malformed(s, "a number"))
            }
        }

        /// Floats are rounded to `places` decimal places.
        #[diagnostic::do_not_recommend]
        impl KeyDecimal for $t {
            fn write_decimal(&self, width: u32, places: u32, out: &mut String) -> Result<(), KeyPartError> {
                if !self.is_finite() {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::NotFinite));
                }
                let scaled = (*self as f64 * 10f64.powi(places as i32)).round();
                if scaled.abs() >= 1e38 {
                    return Err(KeyPartError::new(self.to_string(), KeyFormatReason::TooWide { width }));
                }
                write_scaled(scaled as i128, width, places, &|| self.to_string(), out)
            }
            fn parse_decimal(s: &str, width: u32, places: u32) -> Result<Self, KeyPartError> {
                let scaled = parse_scaled(s, width, places)?;
                Ok((scaled as f64 / 10f64.powi(places as i32)) as $t)
            }
        }
    )*};
}

floats!(f32, f64);

#[diagnostic::do_not_recommend]
impl KeyText for Uuid {
    const WIDTH: Option<usize> = Some(uuid::fmt::Hyphenated::LENGTH);
    fn write_text(&self, out: &mut String) -> Result<(), KeyPartError> {
        let mut buf = [0u8; uuid::fmt::Hyphenated::LENGTH];
        out.push_str(self.hyphenated().encode_lower(&mut buf));
        Ok(())
    }
    fn parse_text(s: &str) -> Result<Self, KeyPartError> {
        if s.len() != uuid::fmt::Hyphenated::LENGTH || s.bytes().any(|b| b.is_ascii_uppercase()) {
            return Err(KeyPartError::malformed(s, "a lowercase hyphenated uuid"));
        }
        Uuid::try_parse(s).map_err(|_| KeyPartError::malformed(s, "a lowercase hyphenated uuid"))
    }
}
