mirrorSearch.m({"v":3,"chunk":8192,"docs":95,"kinds":{"c":[16384,32768],"k":[32768,49152],"f":[0,16384]},"keys":["3ad84219934d","9c2e21b688ff"],"first":[
"../../etc/passwd",
"by"]});
