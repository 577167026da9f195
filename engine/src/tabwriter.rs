//! A port of Go's `text/tabwriter` column-block algorithm (no flags), which kubectl's
//! `describe` writes through (`tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)`): a column's
//! width is set per block of consecutive lines that have a cell in that column.

/// Format tab-separated `text` with `minwidth` and `padding` (padding char: space).
pub fn format(text: &str, minwidth: usize, padding: usize) -> String {
    let lines: Vec<Vec<&str>> = text
        .split_terminator('\n')
        .map(|l| l.split('\t').collect())
        .collect();
    let mut out = String::new();
    let mut widths: Vec<usize> = Vec::new();
    format_block(
        &lines,
        0,
        lines.len(),
        &mut widths,
        minwidth,
        padding,
        &mut out,
    );
    out
}

fn width(s: &str) -> usize {
    s.chars().count()
}

fn write_lines(lines: &[Vec<&str>], from: usize, to: usize, widths: &[usize], out: &mut String) {
    for line in &lines[from..to] {
        let mut s = String::new();
        for (j, cell) in line.iter().enumerate() {
            s.push_str(cell);
            if j < widths.len() && j + 1 < line.len() {
                for _ in width(cell)..widths[j] {
                    s.push(' ');
                }
            }
        }
        out.push_str(&s);
        out.push('\n');
    }
}

fn format_block(
    lines: &[Vec<&str>],
    mut line0: usize,
    line1: usize,
    widths: &mut Vec<usize>,
    minwidth: usize,
    padding: usize,
    out: &mut String,
) {
    let column = widths.len();
    let mut this = line0;
    while this < line1 {
        // Lines whose tab-terminated cells do not reach this column are printed as they are.
        if column + 1 >= lines[this].len() {
            this += 1;
            continue;
        }
        write_lines(lines, line0, this, widths, out);
        line0 = this;
        let mut w = minwidth;
        while this < line1 && column + 1 < lines[this].len() {
            w = w.max(width(lines[this][column]) + padding);
            this += 1;
        }
        widths.push(w);
        format_block(lines, line0, this, widths, minwidth, padding, out);
        widths.pop();
        line0 = this;
    }
    write_lines(lines, line0, line1, widths, out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_blocks_break_at_lines_without_that_column() {
        let text = "Name:\tweb\nNamespace:\tdefault\nIPs:\n  IP:\t10.0.0.1\nControlled By:\tReplicaSet/x\n";
        let want = "Name:       web\nNamespace:  default\nIPs:\n  IP:           10.0.0.1\nControlled By:  ReplicaSet/x\n";
        assert_eq!(format(text, 0, 2), want);
    }
}
