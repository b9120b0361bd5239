mirrorSearch.m({"v":1,"chunk":128,"docs":95,"kinds":{"c":[0,11],"k":[11,16],"f":[16,95]},"first":[
"../../etc/passwd"]});
