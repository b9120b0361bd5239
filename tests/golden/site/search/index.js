mirrorSearch.m({"v":2,"chunk":256,"docs":95,"kinds":{"c":[0,11],"k":[11,16],"f":[16,95]},"first":[
"../../etc/passwd"]});
