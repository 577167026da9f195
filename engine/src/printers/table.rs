//! kubectl's table layout: Go's text/tabwriter with min width 6 and padding 3
//! (`k8s.io/cli-runtime/pkg/printers/tabwriter.go`); the last column is not padded.

/// Lay out rows (the first one is the header) as kubectl prints them.
pub fn render(rows: &[Vec<String>]) -> String {
    const MIN_WIDTH: usize = 6;
    const PADDING: usize = 3;
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut widths = vec![0usize; cols];
    for r in rows {
        for (i, cell) in r.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < r.len() {
                let w = (widths[i] + PADDING).max(MIN_WIDTH);
                for _ in cell.chars().count()..w {
                    line.push(' ');
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_by_three_with_a_minimum_of_six() {
        let rows = vec![
            vec!["NAME".to_string(), "READY".into(), "AGE".into()],
            vec!["web-1".to_string(), "1/1".into(), "5s".into()],
        ];
        assert_eq!(render(&rows), "NAME    READY   AGE\nweb-1   1/1     5s\n");
    }
}
