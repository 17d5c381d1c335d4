import uPlot from "uplot";
export default uPlot;
