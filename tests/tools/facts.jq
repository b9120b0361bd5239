# facts: each row of an api/projects/<slug>.json's "facts" (an array:
# its layer, then its values in the order of the file's "columns" for
# that layer, ending at its last value that is not null) as an object,
# the layer under "layer" and each value under its column's name, null
# where the fact has none or the row ends before the column. Use:
# jq -L "$MIRROR_TOP/tests/tools" 'include "facts"; [facts | ...]' FILE
def facts:
  .columns as $c | .facts[] | . as $r
  | reduce range(0; $c[$r[0]] | length) as $i ({layer: $r[0]};
      .[$c[$r[0]][$i]] = $r[$i + 1]);
