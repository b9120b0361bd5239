mirrorSearch.m({"v":8,"chunk":8192,"docs":98,"kinds":{"c":[16384,32768],"k":[32768,49152],"f":[0,16384]},"per":[11,5,82],"key":"35bfd7941a53022b","urls":[["projects/{p}/index.html#state-{id}","index.html#state-{id}"],["projects/{p}/index.html#entity-{id}","index.html#entity-{id}"],["projects/{p}/index.html#memory-{id}","index.html#memory-{id}"],["conflicts/{id}.html","conflicts/{id}.html"],[null,null],["projects/{p}/index.html","projects/{p}/index.html"]],"keys":[],"first":[
"../../etc/passwd",
"by"]});
