#!/usr/bin/env bash
# Compile one chapter on its own (cross-chapter references show as ??) into /tmp/chapter-<name>.
# Usage: book/tools/check_chapter.sh ch05   (or appA)
set -euo pipefail
cd "$(dirname "$0")/.."
name=$1
out=/tmp/chapter-$name
mkdir -p "$out"
if [[ $name == app* ]]; then
  pre='\appendix'; num=$(( $(printf '%d' "'${name:3:1}") - 65 ))
else
  pre=''; num=$(( 10#${name:2} - 1 ))
fi
cat > "$out/$name-only.tex" <<TEX
\documentclass[10pt,oneside]{book}
\usepackage{dmbook}
\begin{document}
\mainmatter
$pre
\setcounter{chapter}{$num}
\input{chapters/$name}
\end{document}
TEX
TEXINPUTS=.:$PWD//: latexmk -pdf -interaction=nonstopmode -halt-on-error -outdir="$out" "$out/$name-only.tex" > "$out/build.log" 2>&1 || { grep -A5 '^!' "$out/build.log" | head -40; exit 1; }
echo "ok: $out/$name-only.pdf ($(pdfinfo "$out/$name-only.pdf" | awk '/Pages/{print $2}') pages)"
sort "$out/$name-only.lbl" | cut -d'|' -f1 | uniq -c
