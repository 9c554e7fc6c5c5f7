//! IP addresses as ES 6.8 reads, stores and prints them: `InetAddresses.forString` (the
//! Guava parser ES copies: dotted quads without leading zeros, IPv6 with one `::` and an
//! optional dotted tail), Lucene's `InetAddressPoint` encoding (16 bytes, IPv4 mapped
//! into `::ffff:0:0/96`, so byte order is address order) and `DocValueFormat.IP` (an
//! IPv4-mapped address prints dotted, IPv6 as RFC 5952 compresses it).
//!
//! An `ip` field indexes each address as one keyword-like term: the 32 lowercase hex
//! digits of its 16 bytes ([`term`]), whose byte order is the addresses' order, so
//! ordinals sort, range scans and CIDR blocks follow ES's order.

/// An address in `InetAddressPoint`'s 16-byte form.
pub type Ip = [u8; 16];

/// The lowest address (`::`).
pub const MIN: Ip = [0; 16];
/// The highest address.
pub const MAX: Ip = [0xff; 16];

/// A parsed address: its 16 bytes and whether Java holds it as an `Inet4Address` (a
/// dotted quad, or an IPv6 text of an IPv4-mapped address), which decides how a CIDR
/// prefix length is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Addr {
    /// The `InetAddressPoint` bytes.
    pub bytes: Ip,
    /// Whether the address is IPv4 (4 address bytes for a prefix).
    pub v4: bool,
}

/// ES's error for text that is not an address.
pub fn not_an_ip(s: &str) -> String {
    format!("'{s}' is not an IP string literal.")
}

/// Parses `s` as `InetAddresses.forString` does; the error is ES's text.
pub fn parse(s: &str) -> Result<Addr, String> {
    parse_bytes(s).map(from_raw).ok_or_else(|| not_an_ip(s))
}

/// The 16-byte form of 4 or 16 raw address bytes, as `InetAddress.getByAddress` and
/// `InetAddressPoint.encode` make it.
fn from_raw(raw: Vec<u8>) -> Addr {
    let mut bytes = [0u8; 16];
    if raw.len() == 4 {
        bytes[10] = 0xff;
        bytes[11] = 0xff;
        bytes[12..].copy_from_slice(&raw);
        return Addr { bytes, v4: true };
    }
    bytes.copy_from_slice(&raw);
    Addr { bytes, v4: is_mapped(&bytes) }
}

/// Whether `ip` is an IPv4-mapped address (`::ffff:a.b.c.d`).
fn is_mapped(ip: &Ip) -> bool {
    ip[..10].iter().all(|b| *b == 0) && ip[10] == 0xff && ip[11] == 0xff
}

fn parse_bytes(s: &str) -> Option<Vec<u8>> {
    let (mut colon, mut dot) = (false, false);
    for c in s.chars() {
        match c {
            '.' => dot = true,
            ':' if dot => return None,
            ':' => colon = true,
            c if c.is_ascii_hexdigit() => {}
            _ => return None,
        }
    }
    if colon {
        if dot {
            return v6(&dotted_tail_to_hex(s)?);
        }
        return v6(s);
    }
    if dot {
        return v4(s);
    }
    None
}

fn v4(s: &str) -> Option<Vec<u8>> {
    // Java's split with a limit keeps empty parts: "1.2.3.4." has five.
    let parts: Vec<&str> = s.splitn(5, '.').collect();
    if parts.len() != 4 {
        return None;
    }
    parts.iter().map(|p| octet(p)).collect()
}

fn octet(p: &str) -> Option<u8> {
    // Decimal only, no leading zero (octal or decimal would be ambiguous).
    if p.is_empty() || p.len() > 3 || !p.bytes().all(|b| b.is_ascii_digit()) || (p.starts_with('0') && p.len() > 1) {
        return None;
    }
    p.parse::<u16>().ok().filter(|n| *n <= 255).map(|n| n as u8)
}

fn dotted_tail_to_hex(s: &str) -> Option<String> {
    let last = s.rfind(':')?;
    let quad = v4(&s[last + 1..])?;
    let hi = (u16::from(quad[0]) << 8) | u16::from(quad[1]);
    let lo = (u16::from(quad[2]) << 8) | u16::from(quad[3]);
    Some(format!("{}{hi:x}:{lo:x}", &s[..=last]))
}

fn v6(s: &str) -> Option<Vec<u8>> {
    let parts: Vec<&str> = s.splitn(10, ':').collect();
    if parts.len() < 3 || parts.len() > 9 {
        return None;
    }
    // An empty part between the ends is the one `::`.
    let mut skip = None;
    for (i, p) in parts.iter().enumerate().take(parts.len() - 1).skip(1) {
        if p.is_empty() {
            if skip.is_some() {
                return None;
            }
            skip = Some(i);
        }
    }
    let (hi, lo) = match skip {
        Some(i) => {
            let (mut hi, mut lo) = (i, parts.len() - i - 1);
            if parts[0].is_empty() {
                hi -= 1;
                if hi != 0 {
                    return None;
                }
            }
            if parts[parts.len() - 1].is_empty() {
                lo -= 1;
                if lo != 0 {
                    return None;
                }
            }
            (hi, lo)
        }
        None => (parts.len(), 0),
    };
    let skipped = 8usize.checked_sub(hi + lo)?;
    if (skip.is_some() && skipped < 1) || (skip.is_none() && skipped != 0) {
        return None;
    }
    let mut out = Vec::with_capacity(16);
    let mut put = |p: &str| -> Option<()> {
        // `Integer.parseInt(p, 16)` up to 0xffff: leading zeros may make it longer.
        let digits = p.trim_start_matches('0');
        if p.is_empty() || digits.len() > 4 {
            return None;
        }
        let h = if digits.is_empty() { 0 } else { u16::from_str_radix(digits, 16).ok()? };
        out.extend_from_slice(&h.to_be_bytes());
        Some(())
    };
    for p in &parts[..hi] {
        put(p)?;
    }
    for _ in 0..skipped {
        put("0")?;
    }
    for p in &parts[parts.len() - lo..] {
        put(p)?;
    }
    Some(out)
}

/// The address as `DocValueFormat.IP` prints it: dotted for IPv4-mapped addresses,
/// else RFC 5952 (the longest run of two or more zero hextets, leftmost on a tie, as
/// `::`; lowercase hex without leading zeros).
pub fn format(ip: &Ip) -> String {
    if is_mapped(ip) {
        return format!("{}.{}.{}.{}", ip[12], ip[13], ip[14], ip[15]);
    }
    let hextets: Vec<u16> = ip.chunks(2).map(|c| u16::from_be_bytes([c[0], c[1]])).collect();
    let (mut best, mut best_len, mut start) = (None, 0usize, None);
    // A sentinel non-zero hextet past the end closes a trailing run.
    for (i, h) in hextets.iter().chain(std::iter::once(&1)).enumerate() {
        if *h == 0 {
            start.get_or_insert(i);
        } else if let Some(s) = start.take() {
            if i - s > best_len {
                best = Some(s);
                best_len = i - s;
            }
        }
    }
    let zeros = best.filter(|_| best_len >= 2).map(|s| s..s + best_len);
    let mut out = String::with_capacity(39);
    let mut last_was_number = false;
    for (i, h) in hextets.iter().enumerate() {
        let compressed = zeros.as_ref().is_some_and(|z| z.contains(&i));
        if compressed {
            if i == 0 || last_was_number {
                out.push_str("::");
            }
        } else {
            if last_was_number {
                out.push(':');
            }
            out.push_str(&format!("{h:x}"));
        }
        last_was_number = !compressed;
    }
    out
}

/// The indexed term of an address: its 16 bytes as 32 lowercase hex digits.
pub fn term(ip: &Ip) -> String {
    ip.iter().map(|b| format!("{b:02x}")).collect()
}

/// The address an indexed term holds.
pub fn from_term(t: &[u8]) -> Option<Ip> {
    if t.len() != 32 {
        return None;
    }
    let mut ip = [0u8; 16];
    for (i, pair) in t.chunks(2).enumerate() {
        ip[i] = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(ip)
}

/// A stored term printed as an address (the term itself if it is none).
pub fn format_term(t: &str) -> String {
    from_term(t.as_bytes()).map(|ip| format(&ip)).unwrap_or_else(|| t.to_string())
}

/// The next address up (`InetAddressPoint.nextUp`); `None` past the highest.
pub fn next_up(ip: &Ip) -> Option<Ip> {
    u128::from_be_bytes(*ip).checked_add(1).map(u128::to_be_bytes)
}

/// The next address down (`InetAddressPoint.nextDown`); `None` below the lowest.
pub fn next_down(ip: &Ip) -> Option<Ip> {
    u128::from_be_bytes(*ip).checked_sub(1).map(u128::to_be_bytes)
}

/// The first and last address of `addr`'s block of `prefix` leading bits, counted on
/// its 4 bytes for IPv4 (Lucene's `InetAddressPoint.newPrefixQuery`).
pub fn prefix_block(addr: Addr, prefix: u32) -> Result<(Ip, Ip), String> {
    let width = if addr.v4 { 32 } else { 128 };
    if prefix > width {
        return Err(format!("illegal prefixLength '{prefix}'. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"));
    }
    let host_bits = width - prefix;
    let host = if host_bits == 0 { 0 } else { u128::MAX >> (128 - host_bits) };
    let v = u128::from_be_bytes(addr.bytes);
    Ok(((v & !host).to_be_bytes(), (v | host).to_be_bytes()))
}

/// A `term` query's value on an `ip` field (`IpFieldType.termQuery`): an address (one
/// address) or `address/prefix` (its block), with ES's errors.
pub fn term_query_bounds(value: &str) -> Result<(Ip, Ip), String> {
    if value.contains('/') {
        let fields = java_split(value, '/');
        if fields.len() != 2 {
            return Err(format!("Expected [ip/prefix] but was [{value}]"));
        }
        let addr = parse(fields[0])?;
        let prefix = java_parse_int(fields[1])?;
        if prefix < 0 {
            return Err(format!(
                "illegal prefixLength '{prefix}'. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"
            ));
        }
        return prefix_block(addr, prefix as u32);
    }
    let a = parse(value)?;
    Ok((a.bytes, a.bytes))
}

/// `InetAddresses.parseCidr` (an `ip_range` value, an `ip_range` aggregation's `mask`):
/// the block's first and last address.
pub fn parse_cidr(value: &str) -> Result<(Ip, Ip), String> {
    let fields = java_split(value, '/');
    if fields.len() != 2 {
        return Err(format!("Expected [ip/prefix] but was [{value}]"));
    }
    let addr = parse(fields[0])?;
    if fields[0].contains(':') && addr.v4 {
        return Err(format!("CIDR notation is not allowed with IPv6-mapped IPv4 address [{} as it introduces ambiguity as to whether the prefix length should be interpreted as a v4 prefix length or a v6 prefix length", fields[0]));
    }
    let prefix = java_parse_int(fields[1])?;
    let width = if addr.v4 { 32 } else { 128 };
    if prefix < 0 || prefix > width {
        return Err(format!(
            "Illegal prefix length [{prefix}] in [{value}]. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"
        ));
    }
    prefix_block(addr, prefix as u32)
}

/// Java's `String.split(char)`: trailing empty parts dropped.
fn java_split(s: &str, sep: char) -> Vec<&str> {
    let mut parts: Vec<&str> = s.split(sep).collect();
    while parts.len() > 1 && parts.last() == Some(&"") {
        parts.pop();
    }
    if parts == [""] && !s.is_empty() {
        parts.clear();
    }
    parts
}

/// Java's `Integer.parseInt`, with its `NumberFormatException` text.
fn java_parse_int(s: &str) -> Result<i64, String> {
    let digits = s.strip_prefix(['-', '+']).unwrap_or(s);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("For input string: \"{s}\""));
    }
    s.parse::<i32>().map(i64::from).map_err(|_| format!("For input string: \"{s}\""))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(s: &str) -> String {
        format(&parse(s).unwrap().bytes)
    }

    #[test]
    fn parses_and_prints_as_es() {
        assert_eq!(round_trip("192.168.0.1"), "192.168.0.1");
        assert_eq!(round_trip("::ffff:1.2.3.4"), "1.2.3.4");
        assert_eq!(round_trip("::1.2.3.4"), "::102:304");
        assert_eq!(round_trip("2001:0DB8:0000:0000:0000:ff00:0042:8329"), "2001:db8::ff00:42:8329");
        assert_eq!(round_trip("::"), "::");
        assert_eq!(round_trip("1::"), "1::");
        assert_eq!(round_trip("1:0:0:1:0:0:0:1"), "1:0:0:1::1");
        assert_eq!(round_trip("1:0:1:0:1:0:1:0"), "1:0:1:0:1:0:1:0");
        assert_eq!(round_trip("0:100::"), "0:100::");
        assert_eq!(round_trip("00000001::"), "1::");
        for bad in [
            "",
            "1.2.3",
            "1.2.3.4.",
            "01.2.3.4",
            "256.1.1.1",
            ":1",
            "1:::2",
            "1::2::3",
            "12345::",
            "a.b.c.d",
            " 1.2.3.4",
            "1:2:3:4:5:6:7:8:9",
            "1.2.3.4:5::",
        ] {
            assert_eq!(parse(bad), Err(not_an_ip(bad)), "{bad}");
        }
    }

    #[test]
    fn terms_keep_address_order() {
        let a = term(&parse("::1").unwrap().bytes);
        let b = term(&parse("10.0.0.1").unwrap().bytes);
        let c = term(&parse("2001:db8::1").unwrap().bytes);
        assert!(a < b && b < c);
        assert_eq!(format_term(&b), "10.0.0.1");
    }

    #[test]
    fn cidr_blocks() {
        let (lo, hi) = term_query_bounds("192.168.0.0/16").unwrap();
        assert_eq!((format(&lo), format(&hi)), ("192.168.0.0".into(), "192.168.255.255".into()));
        let (lo, hi) = parse_cidr("::/24").unwrap();
        assert_eq!(format(&lo), "::");
        assert_eq!(format(&next_up(&hi).unwrap()), "0:100::");
        assert_eq!(term_query_bounds("0/0/0/0/0").unwrap_err(), "Expected [ip/prefix] but was [0/0/0/0/0]");
        assert_eq!(
            term_query_bounds("1.2.3.4/33").unwrap_err(),
            "illegal prefixLength '33'. Must be 0-32 for IPv4 ranges, 0-128 for IPv6 ranges"
        );
        assert_eq!(parse_cidr("10.0.0.1").unwrap_err(), "Expected [ip/prefix] but was [10.0.0.1]");
    }
}
