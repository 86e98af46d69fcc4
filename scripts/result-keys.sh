#!/bin/bash
# result-keys.sh - every result key spelt as a string literal in src/: prints
# "read|write FILE:LINE KEY FUNCTION", one a line, for the keys passed to the
# results-model accessors (result_num, result_str, result_num_in, result_get,
# result_snum, result_sstr), to cJSON's object look-ups and adders, and to
# every private accessor wrapper (a static function taking (const cJSON *,
# const char *)). tests/integration/result_schema.sh checks each against the
# schema table (src/result/result_schema.c). Usage: result-keys.sh [TREE]
# (TREE: a source tree holding src/, default this one).
#
# Not result keys, so left out: what fio_json*.c write (fio's own JSON
# format), what device/smartctl_parse.c reads (smartctl's), what mpi/ sends.
cd "${1:-$(dirname "$0")/..}" || exit 1
files=$(find src -name '*.c' ! -path 'src/mpi/*' ! -name 'smartctl_parse.c' | sort)
# shellcheck disable=SC2086
wrappers=$(sed -nE 's/^static [a-z0-9_ ]+[ *]([a-z_0-9]+)\(const cJSON \*[a-z_0-9]+, const char \*[a-z_0-9]+(, [^)]*)?\).*/\1/p' $files | sort -u | paste -sd'|')
# shellcheck disable=SC2086
perl -0777 -ne '
    BEGIN { $w = shift @ARGV; }
    my $src = $_;
    my $f = $ARGV;
    my $alt = q{result_(?:num_in|num|str|get|snum|sstr)|cJSON_GetObjectItem(?:CaseSensitive)?|cJSON_HasObjectItem|cJSON_DetachItemFromObject(?:CaseSensitive)?|cJSON_DeleteItemFromObject(?:CaseSensitive)?};
    $alt .= "|$w" if $w ne "";
    my $read = qr/\b(?:$alt)/;
    my $write = qr/\bcJSON_Add[A-Za-z]*ToObject(?:CS)?|\bcJSON_ReplaceItemInObject(?:CaseSensitive)?/;
    my $arg = qr/(?:[^,;()"]|\((?:[^()]|\([^()]*\))*\))*/;
    while ($src =~ /($read|$write)\s*\(\s*$arg,\s*"([^"\\]+)"/g) {
        my ($fn, $key, $pos) = ($1, $2, $-[0]);
        my $line = 1 + (substr($src, 0, $pos) =~ tr/\n//);
        my $kind = $fn =~ /^cJSON_(Add|Replace)/ ? "write" : "read";
        next if $kind eq "write" && $f =~ m{src/output/fio_json};
        print "$kind $f:$line $key $fn\n";
    }
' "$wrappers" $files
