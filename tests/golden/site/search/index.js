mirrorSearch.m({"v":1,"chunk":128,"docs":95,"first":[
"../../etc/passwd"]});
